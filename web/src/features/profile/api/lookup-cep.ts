import { useMutation } from '@tanstack/react-query'
import { request } from '@/lib/api/client'

/** The address of a CEP (street, bairro, city, UF), when the server has a CEP lookup configured. */
export const lookupCep = (cep: string) => request('get', '/api/cep/{cep}', { path: { cep }, auth: true })

/** Asks for a CEP's address on demand (the profile form, after 8 digits); never retried: the owner can type instead. */
export const useLookupCep = () => useMutation({ mutationFn: lookupCep, retry: false })
