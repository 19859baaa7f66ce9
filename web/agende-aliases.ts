/**
 * The light build's aliases, listed once (issue 40 §5): what each name the
 * public pages import resolves to in that build (vite.agende.config.ts
 * builds its `resolve.alias` from this list) and what `tsc` checks them
 * against (tsconfig.agende.json's `paths`, which src/agende/aliases.test.ts
 * holds equal to tsconfigPaths() below). Paths are from web/.
 */
type Alias = {
  /** the name as imported (exactly; `x/*` for every name under x/) */
  module?: string
  /** or, for a relative import inside a package, the import's pattern */
  find?: RegExp
  /** what the light build gives for it */
  file: string
  /** what tsc checks it against when not `file`; null when tsc never sees the import */
  types?: string | null
}

export const agendeAliases: Alias[] = [
  // The stand-ins (src/agende/), each compared with what it stands in for in agende.test.tsx.
  { module: '@/lib/utils', file: 'src/agende/utils.ts' },
  { module: '@radix-ui/react-slot', file: 'src/agende/slot.tsx' },
  { module: 'class-variance-authority', file: 'src/agende/cva.ts' },
  { module: 'react-router', file: 'src/agende/router.tsx' },
  { module: '@tanstack/react-query', file: 'src/agende/query.ts' },
  { module: 'sonner', file: 'src/agende/toast.ts' },
  { module: 'react-hook-form', file: 'src/agende/form.ts' },
  { module: '@hookform/resolvers/zod', file: 'src/agende/resolver.ts' },
  // Every lucide-react icon module imports its builder as '../createLucideIcon.mjs'
  // (the package's index as './…'); tsc reads lucide's own types.
  { find: /^\.\.?\/createLucideIcon\.mjs$/, file: 'src/agende/lucide.ts', types: null },
  // The real sonner, which the toast stand-in loads on the first toast.
  { module: 'sonner-real', file: 'node_modules/sonner/dist/index.mjs', types: 'node_modules/sonner/dist/index.d.mts' },
  // The app's own '@/…' names, after '@/lib/utils' (Vite takes the first alias that matches).
  { module: '@/*', file: 'src/*' },
]

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** vite.agende.config.ts's resolve.alias; `abs` makes a path from web/ absolute. */
export function viteAliases(abs: (path: string) => string) {
  return agendeAliases.map((a) => {
    if (a.find) return { find: a.find, replacement: abs(a.file) }
    if (a.module!.endsWith('/*')) return { find: a.module!.slice(0, -2), replacement: abs(a.file.slice(0, -2)) }
    return { find: new RegExp(`^${escape(a.module!)}$`), replacement: abs(a.file) }
  })
}

/** tsconfig.agende.json's compilerOptions.paths. */
export function tsconfigPaths(): Record<string, string[]> {
  return Object.fromEntries(
    agendeAliases.filter((a) => a.module && a.types !== null).map((a) => [a.module!, [a.types ?? a.file]]),
  )
}
