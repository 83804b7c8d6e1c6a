# The generated files (lib/fincore/generated/) are left as the generator writes them.
[
  inputs: ["{mix,.formatter}.exs", "lib/*.ex", "lib/fincore/*.ex", "{test,scripts}/**/*.{ex,exs}"],
  line_length: 160
]
