// Where each tree-sitter grammar's .wasm comes from (its official npm package) and the name it gets in
// dist/grammars/. The language table in src/index/languages refers to these file names.
export const GRAMMARS = [
  { file: 'tree-sitter-typescript.wasm', source: 'tree-sitter-typescript/tree-sitter-typescript.wasm' },
  { file: 'tree-sitter-tsx.wasm', source: 'tree-sitter-typescript/tree-sitter-tsx.wasm' },
  { file: 'tree-sitter-go.wasm', source: 'tree-sitter-go/tree-sitter-go.wasm' },
  { file: 'tree-sitter-java.wasm', source: 'tree-sitter-java/tree-sitter-java.wasm' },
  {
    file: 'tree-sitter-kotlin.wasm',
    source: '@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm',
  },
  { file: 'tree-sitter-python.wasm', source: 'tree-sitter-python/tree-sitter-python.wasm' },
  { file: 'tree-sitter-rust.wasm', source: 'tree-sitter-rust/tree-sitter-rust.wasm' },
  { file: 'tree-sitter-c_sharp.wasm', source: 'tree-sitter-c-sharp/tree-sitter-c_sharp.wasm' },
  { file: 'tree-sitter-cpp.wasm', source: 'tree-sitter-cpp/tree-sitter-cpp.wasm' },
  { file: 'tree-sitter-c.wasm', source: 'tree-sitter-c/tree-sitter-c.wasm' },
  { file: 'tree-sitter-ruby.wasm', source: 'tree-sitter-ruby/tree-sitter-ruby.wasm' },
  { file: 'tree-sitter-php.wasm', source: 'tree-sitter-php/tree-sitter-php.wasm' },
  { file: 'tree-sitter-scala.wasm', source: 'tree-sitter-scala/tree-sitter-scala.wasm' },
];
