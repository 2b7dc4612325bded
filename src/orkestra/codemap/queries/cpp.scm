; orkestra supplement to tree-sitter-cpp's tags.scm
(preproc_include path: (string_literal (string_content) @import.module))
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro
(namespace_definition name: (namespace_identifier) @name) @definition.namespace
(field_declaration_list (field_declaration declarator: (function_declarator declarator: (field_identifier) @name)) @definition.prototype)
(field_declaration_list (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.prototype)
(translation_unit (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.prototype)
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(type_identifier) @name @reference.type
(field_declaration_list (function_definition declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method)
(field_declaration_list (function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.method)
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: (identifier) @name))) @definition.method
(template_declaration (function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(base_class_clause (type_identifier) @name) @reference.base
(template_argument_list (type_descriptor type: (type_identifier) @name)) @reference.type
(call_expression function: (qualified_identifier name: (identifier) @name)) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(parameter_declaration type: (type_identifier) @name) @reference.type
(new_expression type: (type_identifier) @name) @reference.class
(using_declaration (qualified_identifier) @import.module)
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(call_expression function: (qualified_identifier name: (qualified_identifier name: (identifier) @name))) @reference.call
(alias_declaration name: (type_identifier) @name) @definition.type
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (template_type name: (type_identifier) @receiver) name: (identifier) @name))) @definition.method
(field_declaration_list (field_declaration declarator: (function_declarator declarator: (operator_name) @name)) @definition.prototype)
(field_declaration_list (function_definition declarator: (function_declarator declarator: (operator_name) @name)) @definition.method)
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: (operator_name) @name))) @definition.method
(field_declaration_list (field_declaration declarator: (_ (function_declarator declarator: [(field_identifier) (operator_name)] @name))) @definition.prototype)
(function_definition declarator: (_ (function_declarator declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: [(identifier) (operator_name)] @name)))) @definition.method
(function_definition declarator: (_ (function_declarator declarator: (qualified_identifier scope: (template_type name: (type_identifier) @receiver) name: [(identifier) (operator_name)] @name)))) @definition.method
(function_definition declarator: (function_declarator declarator: (operator_name) @name)) @definition.function
(function_definition declarator: (_ (function_declarator declarator: (operator_name) @name))) @definition.function
