import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { formatInstant } from '@/lib/dates'
import { useCalendarFeeds, useCreateCalendarFeed, useDeleteCalendarFeed, useSetCalendarFeedPhone } from './api/calendar-feeds'
import { copyText } from '@/lib/clipboard'

/**
 * 'Calendário no celular': a private iCalendar address for the whole
 * practice and for each professional, to subscribe to in Google, Apple or
 * Outlook calendars. The address is shown once, when it is made (the server
 * keeps only its hash); a new one replaces it, and it can be revoked.
 * The calendar provider keeps what the feed says, so the card says what that
 * is; the client's phone goes only where the owner ticks it, per feed.
 */
export function CalendarFeedsCard() {
  const feeds = useCalendarFeeds()
  const team = useProfessionals()
  const create = useCreateCalendarFeed()
  const revoke = useDeleteCalendarFeed()
  const phone = useSetCalendarFeedPhone()
  const [shown, setShown] = useState<{ scope: string; url: string } | null>(null)
  const scopes = [{ id: null as string | null, name: 'Toda a clínica' }, ...(team.data ?? []).filter((p) => p.active).map((p) => ({ id: p.id as string | null, name: p.name }))]

  // A new link keeps the scope's choice of the phone: it changes the address, not what it carries.
  function make(id: string | null, name: string, includePhone: boolean) {
    create.mutate({ professionalId: id, includePhone }, {
      onSuccess: (f) => {
        setShown({ scope: name, url: f.url ?? '' })
        toast.success('Link do calendário criado', { description: 'Copie o endereço agora: ele só é mostrado uma vez.' })
      },
      onError: () => toast.error('Erro', { description: 'Não foi possível criar o link. Tente novamente.' }),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Calendário no celular</CardTitle>
        <CardDescription>
          Veja seus agendamentos no Google Agenda, no Calendário do iPhone ou no Outlook: assine o endereço privado (últimos 30 dias e próximos 90).
        </CardDescription>
        <p className="text-sm text-stone-600 dark:text-stone-400">Inclui nome do cliente, serviço e profissional. Observações nunca são enviadas.</p>
      </CardHeader>
      <CardContent className="grid gap-3">
        {shown ? (
          <div className="grid gap-2 rounded-md border border-brand-200 bg-brand-50 p-3 dark:border-brand-800 dark:bg-brand-900/30">
            <label htmlFor="feed-url" className="text-sm font-medium">
              Endereço do calendário — {shown.scope}
            </label>
            <div className="flex gap-2">
              <Input id="feed-url" readOnly value={shown.url} onFocus={(e) => e.currentTarget.select()} />
              <Button
                type="button"
                variant="outline"
                onClick={() => void copyText(shown.url, 'Endereço copiado', 'Copie o endereço manualmente.')}
              >
                Copiar
              </Button>
            </div>
            <p className="text-xs text-stone-600 dark:text-stone-400">
              No Google Agenda: Outras agendas → Do URL. No iPhone: Ajustes → Calendário → Contas → Adicionar conta → Outra → Calendário assinado. Guarde-o: por segurança, ele só é
              mostrado agora.
            </p>
          </div>
        ) : null}
        <ul className="grid gap-2" aria-label="Calendários">
          {scopes.map((s) => {
            const feed = (feeds.data ?? []).find((f) => (f.professionalId ?? null) === s.id)
            return (
              <li key={s.id ?? 'all'} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-stone-200 p-2 dark:border-stone-800">
                <span className="text-sm">
                  <span className="font-medium">{s.name}</span>
                  <span className="block text-xs text-stone-600 dark:text-stone-400">
                    {feed ? `Link ativo desde ${formatInstant(feed.createdAt)}` : 'Sem link'}
                  </span>
                  {feed ? (
                    <label className="mt-1 flex items-center gap-2 text-xs">
                      <input
                        type="checkbox"
                        className="size-4 accent-brand-700"
                        aria-label={`Incluir telefone do cliente — ${s.name}`}
                        checked={feed.includePhone}
                        disabled={phone.isPending}
                        onChange={(e) =>
                          phone.mutate(
                            { id: feed.id, includePhone: e.target.checked },
                            { onError: () => toast.error('Erro', { description: 'Não foi possível salvar. Tente novamente.' }) },
                          )
                        }
                      />
                      Incluir telefone do cliente
                    </label>
                  ) : null}
                </span>
                <span className="flex gap-2">
                  <Button type="button" size="sm" variant="outline" disabled={create.isPending} onClick={() => make(s.id, s.name, feed?.includePhone ?? false)} aria-label={`${feed ? 'Gerar novo link' : 'Gerar link'} — ${s.name}`}>
                    {feed ? 'Gerar novo link' : 'Gerar link'}
                  </Button>
                  {feed ? (
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      disabled={revoke.isPending}
                      aria-label={`Revogar — ${s.name}`}
                      onClick={() =>
                        revoke.mutate(feed.id, {
                          onSuccess: () => {
                            if (shown?.scope === s.name) setShown(null)
                            toast.success('Link revogado', { description: 'O endereço antigo parou de funcionar.' })
                          },
                        })
                      }
                    >
                      Revogar
                    </Button>
                  ) : null}
                </span>
              </li>
            )
          })}
        </ul>
      </CardContent>
    </Card>
  )
}
