/**
 * How each ecosystem names its test files, in one table: what `isTestPath` reads, what impact answers count
 * apart, and what a diff's "tests worth running" recognises. A path is a test file when any row matches.
 */
export interface TestFileConvention {
  /** Who follows it, as people say it. */
  readonly convention: string;
  readonly pattern: RegExp;
}

export const TEST_FILE_CONVENTIONS: readonly TestFileConvention[] = [
  {
    convention: 'test folders (tests/, test/, __tests__/, spec/, e2e/, testdata/, test-utils/, __mocks__/)',
    pattern: /(^|\/)(__tests__|__mocks__|test-utils|testdata|tests?|spec|e2e)\//i,
  },
  {
    convention: 'JavaScript and TypeScript: *.test.ts, *.spec.ts, *.e2e-spec.ts',
    pattern: /\.(spec|test|e2e-spec)\.[cm]?[jt]sx?$/i,
  },
  { convention: 'Go and Python: *_test.go, *_test.py', pattern: /_test\.(go|py)$/i },
  { convention: 'Python: test_*.py', pattern: /(^|\/)test_[^/]*\.py$/i },
  {
    convention: 'JVM and .NET: *Test.java, *Tests.cs, *IT.java, *Test.kt, *Test.scala',
    pattern: /(Test|Tests|IT)\.(java|kt|cs|scala)$/,
  },
  { convention: 'Maven and Gradle: src/test/', pattern: /(^|\/)src\/test\// },
];

/** Whether a root-relative path is a test file by one of the conventions. */
export const matchesTestConvention = (file: string): boolean =>
  TEST_FILE_CONVENTIONS.some((c) => c.pattern.test(file));
