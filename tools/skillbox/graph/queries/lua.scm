; Lua: `require("a.b")` is an import; `M.f` / `M:f` definitions are qualified by their table (@owner).

(function_declaration name: (identifier) @name) @definition.function
(function_declaration name: (dot_index_expression table: (identifier) @owner field: (identifier) @name)) @definition.method
(function_declaration name: (method_index_expression table: (identifier) @owner method: (identifier) @name)) @definition.method
(variable_declaration (assignment_statement (variable_list name: (identifier) @name) (expression_list value: (function_definition)))) @definition.function

(function_call name: (identifier) @name) @reference.call
(function_call name: (dot_index_expression table: (_) @receiver field: (identifier) @name)) @reference.call
(function_call name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @reference.call

((function_call name: (identifier) @_req arguments: (arguments (string content: (string_content) @import.source))) @import
  (#eq? @_req "require"))

(comment) @comment
