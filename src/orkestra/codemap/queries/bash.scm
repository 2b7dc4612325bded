; orkestra tags for Bash (tree-sitter-bash ships none)
(function_definition name: (word) @name) @definition.function
(program (variable_assignment name: (variable_name) @name) @definition.variable)
(program (declaration_command (variable_assignment name: (variable_name) @name) @definition.variable))
(command name: (command_name (word) @name)) @reference.call
(command name: (command_name (word) @_src) argument: (word) @import.module (#any-of? @_src "source" "."))
(command name: (command_name (word) @_src) argument: (string (string_content) @import.module) (#any-of? @_src "source" "."))
