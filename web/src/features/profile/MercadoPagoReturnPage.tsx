import { toast } from 'sonner'
import { queryKeys } from '@/lib/api/keys'
import { finishMercadoPagoOAuth } from './api/mercadopago'
import { OAuthReturnPage } from './OAuthReturnPage'

/** Where Mercado Pago sends the owner back after 'Conectar Mercado Pago' (/profile/mercadopago). */
export default function MercadoPagoReturnPage() {
  return (
    <OAuthReturnPage
      finish={finishMercadoPagoOAuth}
      connected={(st, qc) => {
        qc.setQueryData(queryKeys.mercadopago, st)
        toast.success('Mercado Pago conectado', { description: st.nickname })
      }}
      failedTitle="Mercado Pago não conectado"
      fallback="Não foi possível conectar o Mercado Pago. Tente novamente."
    />
  )
}
