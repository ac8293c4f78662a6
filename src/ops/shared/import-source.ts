/**
 * The last segment of an import source: the name a package is used by when the import gives none
 * (`github.com/shop/pb` → `pb`, `com.shop.Order` → `Order`, `pkg::mod` → `mod`).
 */
export const lastSegment = (source: string): string =>
  source
    .split(/[/.:\\]/)
    .filter(Boolean)
    .pop() ?? source;
