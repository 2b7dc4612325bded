; orkestra supplement to tree-sitter-rust's tags.scm
(impl_item type: (type_identifier) @name body: (declaration_list)) @scope
(impl_item type: (generic_type type: (type_identifier) @name) body: (declaration_list)) @scope
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(mod_item name: (identifier) @import.module !body)
(use_declaration argument: (scoped_identifier path: (_) @import.module name: (identifier) @import.name))
(use_declaration argument: (use_as_clause path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name) alias: (identifier) @import.alias))
(use_declaration argument: (scoped_use_list path: (_) @import.module list: (use_list (identifier) @import.name)))
(use_declaration argument: (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias))))
(call_expression function: (scoped_identifier name: (identifier) @name)) @reference.call
(struct_expression name: (type_identifier) @name) @reference.class
(type_arguments (type_identifier) @name) @reference.type
(parameter type: (type_identifier) @name) @reference.type
(parameter type: (reference_type type: (type_identifier) @name)) @reference.type
(function_item return_type: (type_identifier) @name) @reference.type
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (scoped_identifier path: (identifier) @name)) @reference.type
(function_signature_item name: (identifier) @name) @definition.method
(impl_item trait: (_) type: (type_identifier) @name) @reference.implementation
(type_identifier) @name @reference.type
(token_tree (identifier) @name . (token_tree)) @reference.call
(call_expression function: (scoped_identifier path: (scoped_identifier name: (identifier) @name))) @reference.type
(call_expression function: (scoped_identifier path: (scoped_identifier path: (identifier) @name))) @reference.type
