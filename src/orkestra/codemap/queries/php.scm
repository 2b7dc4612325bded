; orkestra supplement to tree-sitter-php's tags.scm
(namespace_definition name: (namespace_name) @name) @definition.namespace
(enum_declaration name: (name) @name) @definition.enum
(property_declaration (property_element (variable_name (name) @name))) @definition.field
(namespace_use_clause (qualified_name) @import.module !alias)
(namespace_use_clause (qualified_name) @import.module alias: (name) @import.alias)
(require_once_expression (string (string_content) @import.module))
(require_expression (string (string_content) @import.module))
(include_expression (string (string_content) @import.module))
(include_once_expression (string (string_content) @import.module))
(base_clause (name) @name) @reference.base
(class_interface_clause (name) @name) @reference.implementation
(scoped_call_expression scope: (name) @name) @reference.class
(named_type (name) @name) @reference.type
(attribute (name) @name) @reference.type
(object_creation_expression (name) @name) @reference.class
(function_call_expression function: (name) @name) @reference.call
(member_access_expression name: (name) @name) @reference.field
