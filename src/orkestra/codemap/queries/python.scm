; orkestra supplement to tree-sitter-python's tags.scm
(import_statement name: (dotted_name) @import.module)
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name)
(import_from_statement module_name: (_) @import.module name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.name)
(decorator (identifier) @name) @reference.call
(decorator (attribute attribute: (identifier) @name)) @reference.call
(class_definition superclasses: (argument_list (identifier) @name)) @reference.base
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @name))) @reference.base
(type (identifier) @name) @reference.type
(type (generic_type (identifier) @name)) @reference.type
(type (subscript value: (identifier) @name)) @reference.type
(call function: (attribute object: (identifier) @name (#match? @name "^[A-Z]"))) @reference.type
; `A, B = 1, 2` at module level defines A and B (each name its own definition)
(module (expression_statement (assignment left: (pattern_list (identifier) @name @definition.constant))))
(module (expression_statement (assignment left: (tuple_pattern (identifier) @name @definition.constant))))
; a read of a CONSTANT_NAME (module constants are definitions; `code refs` is "who calls or uses")
((identifier) @name (#match? @name "^[A-Z][A-Z0-9_]*$")) @reference.constant
