; Value flow shared by JavaScript, TypeScript and TSX (concatenated after each one's own file, see
; LanguageSpec.query): what variables hold and what functions return, read by resolve.py.

; `const x = f()`, `const x = await f()`, `const x = y`, `this.x = f()`: what x holds. A later `x = g()` is
; not read: the declaration fixes a variable's type, as the checker sees it.
(variable_declarator name: (identifier) @name value: (call_expression function: [(identifier) (member_expression)] @receiver)) @reference.assign
; `await f()` (awaitassign): what f returns (TypeScript reads it without f's declared type, a thenable awaiting unwraps).
(variable_declarator name: (identifier) @name
  value: (await_expression (call_expression function: [(identifier) (member_expression)] @receiver))) @reference.awaitassign
(variable_declarator name: (identifier) @name value: [(identifier) (member_expression)] @receiver) @reference.alias
(assignment_expression left: (member_expression object: (this) property: (property_identifier) @name)
  right: (call_expression function: [(identifier) (member_expression)] @receiver)) @reference.attr
; Returns (what calling a function gives, resolve.py `_result_of`): `return x`, `return f()`, `return new C()` and
; an arrow's expression body, for the function they sit in only when it is a definition (`@owned`, extract.py).
; TypeScript adds `return x as T` and declared return types (typescript.scm).
(return_statement [(identifier) (member_expression) (this)] @name) @owned.returns
(return_statement [(call_expression function: [(identifier) (member_expression)] @name)
  (await_expression (call_expression function: [(identifier) (member_expression)] @name))
  (new_expression constructor: [(identifier) (member_expression)] @name)]) @owned.returncall
(arrow_function body: [(identifier) (member_expression)] @name) @owned.returns
(arrow_function body: [(call_expression function: [(identifier) (member_expression)] @name)
  (new_expression constructor: [(identifier) (member_expression)] @name)]) @owned.returncall
