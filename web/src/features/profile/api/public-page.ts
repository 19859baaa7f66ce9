import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export type PublicPageSettings = Schemas['PublicPageSettings']

export const getPublicPage = () => request('get', '/api/profile/public-page', { auth: true })
export const savePublicPage = (body: PublicPageSettings) => request('put', '/api/profile/public-page', { body, auth: true })

/** What the public page shows: "Ocultar preços na página pública" (issue 43 §3). */
export const usePublicPage = () => useQuery({ queryKey: queryKeys.publicPage, queryFn: getPublicPage })

/** Saves it; the owner's preview of the page reads the public answer again. */
export function useSavePublicPage() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: savePublicPage,
    onSuccess: (saved) => {
      qc.setQueryData(queryKeys.publicPage, saved)
      void qc.invalidateQueries({ queryKey: ['public-profile'] })
    },
  })
}
