import type { Schemas } from './api/client'
import { useConfig } from './api/endpoints/get-config'

const fallback: Schemas['PublicConfig'] = { supportEmail: 'suporte@agendei.app', supportWhatsapp: '5511999999999', demo: false, cepLookup: false }

/** The product's contact points (from the server's configuration). */
export function useContacts(): Schemas['PublicConfig'] {
  const { data } = useConfig()
  return data ?? fallback
}

/**
 * Whether the server runs on `agendei demo`'s database, whose account has a
 * public password; false until the server says so.
 */
export function useDemo(): boolean {
  const { data } = useConfig()
  return data?.demo === true
}
