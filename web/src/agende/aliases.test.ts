import { describe, expect, it } from 'vitest'
import { agendeAliases, tsconfigPaths, viteAliases } from '../../agende-aliases'
import tsconfigText from '../../tsconfig.agende.json?raw'
import agendeHtml from '../../agende.html?raw'

// tsconfig.agende.json is JSON with comments on their own lines.
const tsconfig = JSON.parse(tsconfigText.replace(/^\s*\/\/.*$/gm, '')) as {
  compilerOptions: { paths: Record<string, string[]> }
  include: string[]
  exclude: string[]
}

describe("the light build's aliases", () => {
  it('give tsc the same names, resolved to the same files, as the build (agende-aliases.ts)', () => {
    expect(tsconfig.compilerOptions.paths, `tsconfig.agende.json's "paths" must be:\n${JSON.stringify(tsconfigPaths(), null, 2)}`).toEqual(tsconfigPaths())
  })

  it('check the entry the page loads and the stand-ins\' type tests', () => {
    const entry = /<script type="module" src="\/(src\/[^"]+)"/.exec(agendeHtml)?.[1]
    expect(entry).toBe('src/public-entry.tsx')
    expect(tsconfig.include).toContain(entry)
    expect(tsconfig.include).toContain('src/agende/stand-ins.typetest.ts')
    expect(tsconfig.exclude).toEqual([])
  })

  it('match each import only as meant: exact names, the app prefix last, lucide\'s relative builder', () => {
    const aliases = viteAliases((p) => `/web/${p}`)
    const resolve = (name: string) => {
      const a = aliases.find((x) => (typeof x.find === 'string' ? name === x.find || name.startsWith(`${x.find}/`) : x.find.test(name)))
      if (!a) return name
      return typeof a.find === 'string' ? a.replacement + name.slice(a.find.length) : a.replacement
    }
    expect(resolve('@/lib/utils')).toBe('/web/src/agende/utils.ts')
    expect(resolve('@/lib/utils-extra')).toBe('/web/src/lib/utils-extra')
    expect(resolve('@/components/ui/button')).toBe('/web/src/components/ui/button')
    expect(resolve('react-router')).toBe('/web/src/agende/router.tsx')
    expect(resolve('react-router-dom')).toBe('react-router-dom')
    expect(resolve('sonner')).toBe('/web/src/agende/toast.ts')
    expect(resolve('sonner-real')).toBe('/web/node_modules/sonner/dist/index.mjs')
    expect(resolve('../createLucideIcon.mjs')).toBe('/web/src/agende/lucide.ts')
    expect(resolve('./createLucideIcon.mjs')).toBe('/web/src/agende/lucide.ts')
    expect(resolve('@radix-ui/react-dialog')).toBe('@radix-ui/react-dialog')
    expect(agendeAliases.at(-1)?.module).toBe('@/*')
  })
})
