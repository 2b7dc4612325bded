; orkestra supplement to tree-sitter-go's tags.scm
(method_declaration receiver: (parameter_list (parameter_declaration type: [(type_identifier) @receiver (pointer_type (type_identifier) @receiver) (generic_type type: (type_identifier) @receiver) (pointer_type (generic_type type: (type_identifier) @receiver))])) name: (field_identifier) @name) @definition.method
(source_file (var_declaration (var_spec (identifier) @name) @definition.variable))
(source_file (const_declaration (const_spec (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec_list (var_spec (identifier) @name) @definition.variable)))
(import_spec path: (interpreted_string_literal) @import.module !name)
(import_spec name: (package_identifier) @import.alias path: (interpreted_string_literal) @import.module)
(import_spec name: (dot) @import.name path: (interpreted_string_literal) @import.module)
(composite_literal type: (type_identifier) @name) @reference.class
(method_elem name: (field_identifier) @name) @definition.method
(selector_expression operand: (identifier) field: (field_identifier) @name) @reference.field
(type_alias name: (type_identifier) @name) @definition.type
