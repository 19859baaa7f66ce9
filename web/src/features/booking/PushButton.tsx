import { Bell, BellOff } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/api/client'
import { pushSupport } from '@/lib/push'
import { PushRefused, pushMark, useSubscribePush, useUnsubscribePush } from './api/push'

/**
 * "Receber lembretes neste celular" (issue 41 §4): the booking's reminders,
 * with "Confirmar" and "Cancelar" on the notification, and the notices of a
 * cancellation or a move, on this phone too — free, besides e-mail and
 * WhatsApp. Shown where the browser has the Push API; on an iPhone outside
 * an app added to the home screen, how to get there.
 */
export function PushButton({ token }: { token: string }) {
  const [support] = useState(() => pushSupport())
  const [on, setOn] = useState(() => support === 'yes' && Notification.permission === 'granted' && localStorage.getItem(pushMark(token)) === '1')
  const subscribe = useSubscribePush(token)
  const unsubscribe = useUnsubscribePush(token)
  if (support === 'no') return null
  const box = 'mt-4 rounded-xl border border-green-300 bg-white p-3 text-sm dark:border-green-800 dark:bg-stone-900'
  if (support === 'install') {
    return (
      <div className={box}>
        <p className="font-medium">Lembretes neste celular</p>
        <p className="mt-1 text-stone-600 dark:text-stone-400">
          No iPhone, toque em Compartilhar e em “Adicionar à Tela de Início”; abra o Agendei por lá e ative os lembretes.
        </p>
      </div>
    )
  }
  const refused = subscribe.error instanceof PushRefused ? subscribe.error : null
  return (
    <div className={box} aria-live="polite">
      <p className="font-medium">Lembretes neste celular</p>
      {on ? (
        <>
          <p className="mt-1 text-stone-600 dark:text-stone-400">Ativados: você recebe o lembrete aqui, com os botões Confirmar e Cancelar.</p>
          <Button type="button" variant="outline" size="sm" className="mt-3" disabled={unsubscribe.isPending}
            onClick={() => unsubscribe.mutate(undefined, { onSuccess: () => setOn(false) })}>
            <BellOff aria-hidden /> {unsubscribe.isPending ? 'Desativando…' : 'Parar os lembretes neste celular'}
          </Button>
        </>
      ) : (
        <>
          <p className="mt-1 text-stone-600 dark:text-stone-400">Grátis: o lembrete chega como notificação, além do e-mail ou WhatsApp.</p>
          <Button type="button" size="sm" className="mt-3" disabled={subscribe.isPending}
            onClick={() => subscribe.mutate(undefined, { onSuccess: () => setOn(true) })}>
            <Bell aria-hidden /> {subscribe.isPending ? 'Ativando…' : 'Receber lembretes neste celular'}
          </Button>
        </>
      )}
      {refused?.reason === 'denied' ? (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-300">
          As notificações estão bloqueadas neste navegador. Libere-as nas configurações do site e toque de novo.
        </p>
      ) : subscribe.error ? (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-300">
          {refused ? refused.message + ' Tente de novo ou use o link acima.' : errorMessage(subscribe.error, 'Não foi possível ativar os lembretes. Tente de novo.')}
        </p>
      ) : unsubscribe.error ? (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-300">{errorMessage(unsubscribe.error, 'Não foi possível desativar. Tente de novo.')}</p>
      ) : null}
    </div>
  )
}
