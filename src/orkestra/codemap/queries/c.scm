; orkestra supplement to tree-sitter-c's tags.scm
(preproc_include path: (string_literal (string_content) @import.module))
(preproc_function_def name: (identifier) @name) @definition.macro
(preproc_def name: (identifier) @name) @definition.macro
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name) @definition.constant
(declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function
