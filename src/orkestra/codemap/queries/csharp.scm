; orkestra tags for C# (tree-sitter-c-sharp ships none)
(class_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(property_declaration name: (identifier) @name) @definition.property
(delegate_declaration name: (identifier) @name) @definition.type
(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace
(using_directive (qualified_name) @import.module)
(using_directive (identifier) @import.module)
(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (member_access_expression name: (identifier) @name)) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression name: (generic_name (identifier) @name))) @reference.call
(object_creation_expression type: (identifier) @name) @reference.class
(object_creation_expression type: (generic_name (identifier) @name)) @reference.class
(base_list (identifier) @name) @reference.base
(base_list (generic_name (identifier) @name)) @reference.class
(type_argument_list (identifier) @name) @reference.type
(parameter type: (identifier) @name) @reference.type
(attribute name: (identifier) @name) @reference.type
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(type_parameter_constraint type: (identifier) @name) @reference.type
(member_access_expression expression: (identifier) @name (#match? @name "^[A-Z]")) @reference.type
(variable_declaration type: (identifier) @name) @reference.type
(method_declaration returns: (identifier) @name) @reference.type
(using_directive name: (identifier) @import.alias (qualified_name qualifier: (_) @import.module name: (identifier) @import.name))
(object_creation_expression type: (qualified_name qualifier: (identifier) @name)) @reference.type
(object_creation_expression type: (qualified_name name: (identifier) @name)) @reference.class
(operator_declaration operator: _ @name) @definition.method
