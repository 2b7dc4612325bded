; orkestra supplement to tree-sitter-ruby's tags.scm
(call method: (identifier) @_req arguments: (argument_list (string (string_content) @import.module)) (#eq? @_req "require"))
(call method: (identifier) @import.relative arguments: (argument_list (string (string_content) @import.module)) (#eq? @import.relative "require_relative"))
(call method: (identifier) @_inc arguments: (argument_list (constant) @name) (#any-of? @_inc "include" "extend" "prepend")) @reference.class
(class superclass: (superclass (constant) @name)) @reference.base
