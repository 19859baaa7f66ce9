import { toast } from 'sonner'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { usePlacedSwitch } from '@/lib/placed-switch'
import { errorMessage } from '@/lib/api/client'
import { usePublicPage, useSavePublicPage } from './api/public-page'

/**
 * 'Página pública' (issue 43 §3): "Ocultar preços na página pública". The
 * health councils forbid price as advertising (the CFP's code, art. 20), so
 * the page, the booking form and its confirmation then say "Valor informado
 * no atendimento", and the public answers carry no price; the owner's own
 * screens keep every price.
 */
export function PublicPageCard() {
  const { data } = usePublicPage()
  const save = useSavePublicPage()
  const placed = usePlacedSwitch(data?.hidePrices ?? false)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Página pública</CardTitle>
        <CardDescription>O que os clientes veem na sua página de agendamento.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        {data ? (
          <>
            <label className="flex items-start gap-3">
              <input
                type="checkbox"
                role="switch"
                className="mt-0.5 size-4 shrink-0 accent-brand-700"
                // While saving, the switch shows where the owner put it.
                checked={placed.checked}
                disabled={placed.saving}
                aria-describedby="hide-prices-hint"
                onChange={(e) => {
                  placed.place(e.target.checked)
                  save.mutate(
                    { hidePrices: e.target.checked },
                    {
                      onSuccess: (s) => toast.success(s.hidePrices ? 'Preços ocultos na página pública' : 'Preços visíveis na página pública'),
                      onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível salvar a configuração da página pública.') }),
                      onSettled: placed.settle,
                    },
                  )
                }}
              />
              <span className="font-medium">Ocultar preços na página pública</span>
            </label>
            <p id="hide-prices-hint" className="text-stone-600 dark:text-stone-400">
              Os conselhos de saúde (como o CFP) proíbem divulgar preço como propaganda. Ligado, a página e o agendamento mostram “Valor informado no atendimento”; você continua vendo os preços no Agendei.
            </p>
          </>
        ) : (
          <Skeleton className="h-16" />
        )}
      </CardContent>
    </Card>
  )
}
