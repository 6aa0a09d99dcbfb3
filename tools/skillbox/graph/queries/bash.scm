; Bash: functions, calls to them, `source`/`.` as imports.

(function_definition name: (word) @name) @definition.function

((command name: (command_name (word) @name)) @reference.call
  (#not-match? @name "^(source|\\.)$"))

((command name: (command_name (word) @_cmd) argument: [(word) (string (string_content)) (raw_string)] @import.source) @import
  (#match? @_cmd "^(source|\\.)$"))

(comment) @comment
