; Ruby: `require_relative` / `require` are imports; `Foo.new` is a call to the class.

(class name: (constant) @name) @definition.class
(class name: (scope_resolution name: (constant) @name)) @definition.class
(module name: (constant) @name) @definition.module
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function

(call receiver: (_) @receiver method: (identifier) @name) @reference.call
(call !receiver method: (identifier) @name) @reference.call
((identifier) @name @reference.call
  (#not-match? @name "^[a-z_]+[?!]?$"))

(superclass (constant) @name) @reference.inherit
(superclass (scope_resolution scope: (_) @receiver name: (constant) @name)) @reference.inherit
(call method: (identifier) @_include arguments: (argument_list (constant) @name) @reference.inherit
  (#match? @_include "^(include|extend|prepend)$"))

((call method: (identifier) @_req arguments: (argument_list (string (string_content) @import.source))) @import
  (#match? @_req "^(require|require_relative|load)$"))

(comment) @comment
