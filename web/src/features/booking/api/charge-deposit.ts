import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '@/lib/api/client'
import { publicKeys } from '@/lib/api/public-keys'

export const chargeDeposit = (token: string) => request('post', '/api/public/bookings/{token}/pix', { path: { token } })

/** "Gerar o código Pix": charges again a deposit whose charge failed; the page shows the deposit as it is. */
export function useChargeDeposit() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: chargeDeposit,
    onSuccess: (c, token) => qc.setQueryData(publicKeys.cancellation(token), c),
  })
}
