; orkestra supplement to tree-sitter-javascript's and tree-sitter-typescript's tags.scm
(method_definition name: (property_identifier) @name (#eq? @name "constructor")) @definition.method
(public_field_definition name: (property_identifier) @name) @definition.field
(import_statement (import_clause (named_imports (import_specifier name: (identifier) @import.name !alias))) source: (string (string_fragment) @import.module))
(import_statement (import_clause (named_imports (import_specifier name: (identifier) @import.name alias: (identifier) @import.alias))) source: (string (string_fragment) @import.module))
(import_statement (import_clause (identifier) @import.alias) source: (string (string_fragment) @import.module))
(import_statement (import_clause (namespace_import (identifier) @import.alias)) source: (string (string_fragment) @import.module))
(export_statement (export_clause (export_specifier name: (identifier) @import.name !alias)) source: (string (string_fragment) @import.module))
(export_statement (export_clause (export_specifier name: (identifier) @import.name alias: (identifier) @import.alias)) source: (string (string_fragment) @import.module))
(export_statement "*" source: (string (string_fragment) @import.module))
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(class_declaration name: (type_identifier) @name) @definition.class
(generic_type name: (type_identifier) @name) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(extends_clause value: (identifier) @name) @reference.base
(implements_clause (type_identifier) @name) @reference.implementation
(extends_type_clause type: (type_identifier) @name) @reference.type
(decorator (identifier) @name) @reference.call
(decorator (call_expression function: (identifier) @name)) @reference.call
(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.class
(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.class
(new_expression constructor: (member_expression property: (property_identifier) @name)) @reference.class
(pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.method
(internal_module name: (identifier) @name) @definition.namespace
(type_identifier) @name @reference.type
(method_definition name: (private_property_identifier) @name) @definition.method
(method_definition name: (computed_property_name) @name) @definition.method
(call_expression function: (member_expression property: (private_property_identifier) @name)) @reference.call
(call_expression function: (member_expression object: (identifier) @name (#match? @name "^[A-Z]"))) @reference.type
; module-level `const` / `let` / `var` (a function value stays a function: extract._is_lambda)
(program (lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant))
(program (lexical_declaration "let" (variable_declarator name: (identifier) @name) @definition.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (export_statement (lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant)))
(program (export_statement (lexical_declaration "let" (variable_declarator name: (identifier) @name) @definition.variable)))
(program (export_statement (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)))
; `await import('./x')`
(call_expression function: (import) arguments: (arguments (string (string_fragment) @import.module)))
; `require('./x')` and `import m = require('./x')`
(call_expression function: (identifier) @_req arguments: (arguments (string (string_fragment) @import.module)) (#eq? @_req "require"))
; `const { a, b: c } = require('./x')` takes names from the module
(program (lexical_declaration (variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @import.name) value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @import.module) .)) (#eq? @_req "require"))))
(program (lexical_declaration (variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias)) value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @import.module) .)) (#eq? @_req "require"))))
(program (variable_declaration (variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @import.name) value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @import.module) .)) (#eq? @_req "require"))))
(program (variable_declaration (variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias)) value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @import.module) .)) (#eq? @_req "require"))))
(import_statement (import_require_clause (identifier) @import.alias source: (string (string_fragment) @import.module)))
; a read of a CONSTANT_NAME (module constants are definitions; `code refs` is "who calls or uses")
((identifier) @name (#match? @name "^[A-Z][A-Z0-9_]*$")) @reference.constant
; the names a scope binds (`@bind`): a read of such a name there is its own, not the
; module's (extract._value_uses, extract._local_calls)
(variable_declarator name: (identifier) @bind)
(required_parameter pattern: (identifier) @bind)
(optional_parameter pattern: (identifier) @bind)
(assignment_pattern left: (identifier) @bind)
(rest_pattern (identifier) @bind)
(object_pattern (shorthand_property_identifier_pattern) @bind)
(object_assignment_pattern left: (shorthand_property_identifier_pattern) @bind)
(pair_pattern value: (identifier) @bind)
(array_pattern (identifier) @bind)
(arrow_function parameter: (identifier) @bind)
(function_declaration name: (identifier) @bind)
(generator_function_declaration name: (identifier) @bind)
(function_expression name: (identifier) @bind)
(class_declaration name: (type_identifier) @bind)
(catch_clause parameter: (identifier) @bind)
(for_in_statement left: (identifier) @bind)
(enum_assignment name: (property_identifier) @bind)
(enum_body name: (property_identifier) @bind)
