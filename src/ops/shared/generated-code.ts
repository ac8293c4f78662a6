/**
 * Generated code, told by the names generators give their files and folders: ranked after hand-written code
 * in search, and not taken as a dependency on every contract it happens to hold.
 */

/** Files protobuf/gRPC, OpenAPI and similar generators write, by the names they give them. */
const GENERATED_NAMES = [
  /_pb2(_grpc)?\.pyi?$/,
  /\.pb(\.gw)?\.go$/,
  /_grpc\.pb\.go$/,
  /\.pb\.(cc|h)$/,
  /_(grpc_)?pb\.(js|d\.ts|ts)$/,
  /\.g\.cs$/,
  /Grpc\.cs$/,
  /\.pb\.rs$/,
  /OuterClass\.java$/,
  /Grpc\.(java|kt)$/,
];

/** Folders generated code is written to by convention. */
const GENERATED_FOLDERS =
  /(^|\/)(gen|generated|genproto|__generated__|gen-[a-z]+|target\/generated-sources)\//;

export function isGeneratedPath(path: string): boolean {
  return GENERATED_FOLDERS.test(path) || GENERATED_NAMES.some((pattern) => pattern.test(path));
}
