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

; Value flow (no edges of their own; the resolver follows them, see resolve.py "values"):
; assign: `x = f(...)`, `x: T`, `def g(x: T)`: x holds what calling f (or T) gives.
(assignment left: (identifier) @name right: (call function: [(identifier) (attribute)] @receiver)) @reference.assign
(assignment left: (identifier) @name type: (type [(identifier) (attribute)] @receiver)) @reference.assign
(typed_parameter (identifier) @name type: (type [(identifier) (attribute)] @receiver)) @reference.assign
(typed_default_parameter name: (identifier) @name type: (type [(identifier) (attribute)] @receiver)) @reference.assign
; with: `with C() as x` binds what `C().__enter__()` returns, most often the instance (a guess: withassign).
(with_item value: (as_pattern (call function: [(identifier) (attribute)] @receiver)
  alias: (as_pattern_target (identifier) @name))) @reference.withassign
; alias: `x = f` / `x = mod.f`: x is f.
(assignment left: (identifier) @name right: [(identifier) (attribute)] @receiver) @reference.alias
; self attributes: `self.x = f(...)`, `self.x = f`, `self.x: T = ...`.
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  right: (call function: [(identifier) (attribute)] @receiver)) @reference.attr (#eq? @_self "self"))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  right: [(identifier) (attribute)] @receiver) @reference.attralias (#eq? @_self "self"))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  type: (type [(identifier) (attribute)] @receiver)) @reference.attr (#eq? @_self "self"))
; returns: `return f` (returns), `return f(...)` (returncall), `def g() -> T` (returncall of T).
(return_statement [(identifier) (attribute)] @name) @reference.returns
(return_statement (call function: [(identifier) (attribute)] @name)) @reference.returncall
(function_definition return_type: (type [(identifier) (attribute)] @name)) @reference.returncall
; holds: callables kept in a dict or list, called as `d[k]()`. @receiver is the container; @name holds the key
; and the value (`"k": f` of a dict literal, `d["k"] = f`), or the value alone at a list position (item0-3).
(assignment left: (identifier) @receiver right: (dictionary (pair value: [(identifier) (attribute)
  (call function: [(identifier) (attribute)] arguments: (argument_list . ")"))]) @name)) @reference.holds
; `d.update({"k": f})` sets the key as `d["k"] = f` does.
((call function: (attribute object: (identifier) @receiver attribute: (identifier) @_update)
  arguments: (argument_list . (dictionary (pair value: [(identifier) (attribute)]) @name) . ")"))
  @reference.holds (#eq? @_update "update"))
((assignment left: (subscript value: (identifier) @receiver) right: [(identifier) (attribute)]) @name) @reference.holds
; One unanchored pattern, the position (item0-3) counted in extract.py (`@position.item`): four anchored patterns
; `(list . (_) . (_) . [...] @name)` cost ~4% of the whole query's time on Django for a few hundred matches.
(assignment left: (identifier) @receiver
  right: [(list [(identifier) (attribute)] @name) (tuple [(identifier) (attribute)] @name)]) @position.item
(call function: (subscript value: (identifier) @receiver) @name) @reference.callitem
; `f()()`: the result of a call, called.
(call function: (call function: [(identifier) (attribute)] @name)) @reference.callresult
; `a, b = f, g` / `a, b = C(), D()`: position by position (up to three), and nested `a, (b, c) = f, (g, h)` (the inner
; pair, up to two): alias for a name or attribute, assign for a call's callee. One pattern (`@unpack`), the pairs
; read by the python hook (`unpack_pairs`): eight anchored `(pattern_list . (_) . (_) . ...)` patterns cost ~3% of the
; query's time on Django and a third of its compile time for ~150 matches.
(assignment left: (pattern_list) @name right: (expression_list) @receiver) @unpack
; Parameter flow (pruned by the python hook to what a body calls; see `languages/python.py` `prune_refs`):
; params: a def's parameter list (the hook keeps the parameters its body calls as `param`). The arguments of a
; call (arg0, arg1: a name or attribute passed at a position; argkw: `k=v`) are read by the hook off the call node
; of each `reference.call` match (`call_arguments`), cheaper than three patterns on every call.
(parameters) @name @reference.params
; iter: `for x in c` / `for x in f(...)`: the loop calls c's `__iter__` and `__next__`, x holds what they give.
(for_statement left: (identifier) @name right: [(identifier) (attribute)] @receiver) @reference.iter
(for_statement left: (identifier) @name right: (call function: [(identifier) (attribute)] @receiver)) @reference.itercall
; yields: `yield f`, what iterating a generator function gives.
(yield [(identifier) (attribute)] @name) @reference.yields
; chained: `a = b = f`, `a = b = C()`.
(assignment left: (identifier) @name right: (assignment right: [(identifier) (attribute)] @receiver)) @reference.alias
(assignment left: (identifier) @name
  right: (assignment right: (call function: [(identifier) (attribute)] @receiver))) @reference.assign
; `raise E` instantiates E.
(raise_statement (identifier) @name) @reference.call

(import_statement) @import
(import_from_statement) @import

; Only the comments that explain why (docstrings carry the rest).
((comment) @comment (#match? @comment "^#+\\s*(NOTE|WHY|HACK)\\b"))
