; orkestra supplement to tree-sitter-java's tags.scm
(constructor_declaration name: (identifier) @name) @definition.method
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(annotation_type_declaration name: (identifier) @name) @definition.interface
(class_body (field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field)
(interface_body (method_declaration name: (identifier) @name) @definition.method)
(import_declaration (scoped_identifier) @import.module)
(import_declaration (scoped_identifier) @import.module (asterisk))
(package_declaration (scoped_identifier) @name) @definition.package
(package_declaration (identifier) @name) @definition.package
(marker_annotation name: (identifier) @name) @reference.type
(annotation name: (identifier) @name) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(formal_parameter type: (type_identifier) @name) @reference.type
(local_variable_declaration type: (type_identifier) @name) @reference.type
(method_declaration type: (type_identifier) @name) @reference.type
(method_invocation object: (identifier) @name (#match? @name "^[A-Z]")) @reference.type
(generic_type (type_identifier) @name) @reference.type
(type_identifier) @name @reference.type
(superclass (type_identifier) @name) @reference.base
(super_interfaces (type_list (type_identifier) @name)) @reference.base
