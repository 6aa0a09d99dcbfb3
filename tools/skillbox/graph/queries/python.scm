; Python: definitions, calls, bases, annotations, decorators, imports, comments.
; Imports are parsed by the python hook (relative levels, aliases, star imports).

(class_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?)) @definition.class

(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?)) @definition.function

(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call

(class_definition superclasses: (argument_list (identifier) @name @reference.inherit))
(class_definition superclasses: (argument_list
  (attribute object: (_) @receiver attribute: (identifier) @name) @reference.inherit))

(decorator (identifier) @name) @reference.decorator
(decorator (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.decorator
(decorator (call function: (identifier) @name)) @reference.decorator
(decorator (call function: (attribute object: (_) @receiver attribute: (identifier) @name))) @reference.decorator

(type (identifier) @name) @reference.type
(type (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.type
(type (subscript value: (identifier) @name)) @reference.type
(type (subscript subscript: (identifier) @name)) @reference.type
(type (generic_type (identifier) @name)) @reference.type
(type (binary_operator left: (identifier) @name)) @reference.type
(type (binary_operator right: (identifier) @name)) @reference.type

; Typed receivers: `x = Cls(...)` and `x: Cls` let `x.method()` resolve (INFERRED) to Cls.method.
(assignment left: (identifier) @name right: (call function: [(identifier) (attribute)] @receiver)) @reference.assign
(typed_parameter (identifier) @name type: (type [(identifier) (attribute)] @receiver)) @reference.assign
(typed_default_parameter name: (identifier) @name type: (type [(identifier) (attribute)] @receiver)) @reference.assign

(import_statement) @import
(import_from_statement) @import

; Only the comments that explain why (docstrings carry the rest).
((comment) @comment (#match? @comment "^#+\\s*(NOTE|WHY|HACK)\\b"))
