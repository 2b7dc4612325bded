; orkestra supplement for TSX, after typescript.scm's (languages.LANGUAGES): JSX components
(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.class
(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.class
