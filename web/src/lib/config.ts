import type { Schemas } from './api/client'
import { useConfig } from './api/endpoints/get-config'

const fallback: Schemas['PublicConfig'] = { supportEmail: 'suporte@agendei.app', supportWhatsapp: '5511999999999' }

/** The product's contact points (from the server's configuration). */
export function useContacts(): Schemas['PublicConfig'] {
  const { data } = useConfig()
  return data ?? fallback
}
