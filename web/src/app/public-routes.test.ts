import { matchRoutes } from 'react-router'
import { describe, expect, it } from 'vitest'
import { route as lightRoute } from '@/agende/router'
import { routes as appRoutes } from '@/app/router'
import { pageFiles, publicRoutes } from './public-routes'
import list from '../../publicroutes/public-routes.json'

// A path of each public route, with its parameters filled in.
const sample = (path: string) => path.replace(/:[^/]+/g, 'ana-souza')

describe('the one list of public routes', () => {
  it('is what both routers render', () => {
    expect(publicRoutes.map((r) => r.path)).toEqual(['/agende/:username/form', '/agende/:username/lista-de-espera', '/embed/:username', '/agende/:username', '/cancel/:token', '/resposta/:token', '/lista-de-espera/oferta/:token', '/lista-de-espera/:token', '/booking'])
    for (const r of publicRoutes) {
      expect(lightRoute(sample(r.path))?.pattern, `light build: ${r.path}`).toBe(r.path)
      expect(matchRoutes(appRoutes, sample(r.path))?.at(-1)?.route.path, `full app: ${r.path}`).toBe(r.path)
    }
    // Near misses are not public pages in either build.
    expect(lightRoute('/agende/ana/outra')).toBeNull()
    expect(matchRoutes(appRoutes, '/agende/ana/outra')?.at(-1)?.route.path).toBe('*')
  })

  it('imports exactly the page files it names', () => {
    expect(new Set(pageFiles)).toEqual(new Set(list.routes.map((r) => r.page)))
  })
})
