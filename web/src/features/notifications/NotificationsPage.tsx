import { Bell, BellOff, CalendarCheck, Info, UserRound } from 'lucide-react'
import { useEffect } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { clientPathOf } from '@/components/client-link'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { useNotifications } from '@/lib/api/endpoints/get-notifications'
import { relativeDate } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useDeleteNotification } from './api/delete-notification'
import { useMarkAllNotificationsRead } from './api/mark-all-notifications-read'
import { useMarkNotificationRead } from './api/mark-notification-read'

type Notification = Schemas['Notification']

const icons = { appointment: CalendarCheck, system: Info, client: UserRound, reminder: Bell } as Record<string, typeof Bell>

export default function NotificationsPage() {
  const { data, isLoading, isError } = useNotifications()
  useEffect(() => {
    if (isError) toast.error('Erro ao carregar notificações')
  }, [isError])
  const readAll = useMarkAllNotificationsRead()
  const read = useMarkNotificationRead()
  const remove = useDeleteNotification()
  // Each action's toasts; the mutations refresh the list (and the bell) themselves.
  const said = (ok: string, fail: string) => ({
    onSuccess: () => toast.success(ok),
    onError: (e: Error) => toast.error(fail, { description: errorMessage(e, 'Tente novamente.') }),
  })

  const list = data?.notifications ?? []
  const unread = data?.unread ?? 0
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <BackLink />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Notificações</h1>
          <p className="text-sm text-stone-600 dark:text-stone-400">{unread === 1 ? '1 não lida' : `${unread} não lidas`}</p>
        </div>
        {unread > 0 ? (
          <Button
            variant="outline"
            disabled={readAll.isPending}
            onClick={() => readAll.mutate(undefined, said('Todas as notificações foram marcadas como lidas', 'Erro ao marcar todas como lidas'))}
          >
            Marcar todas como lidas
          </Button>
        ) : null}
      </div>
      {isLoading ? (
        <div className="p-10 text-center">
          <Spinner />
        </div>
      ) : list.length === 0 ? (
        <Card className="p-10 text-center">
          <BellOff className="mx-auto size-8 text-stone-400" aria-hidden />
          <p className="mt-3 font-medium">Nenhuma notificação</p>
          <p className="text-sm text-stone-600 dark:text-stone-400">Você está em dia! Não há notificações no momento.</p>
        </Card>
      ) : (
        <ul className="grid gap-3">
          {list.map((n) => (
            <Item
              key={n.id}
              n={n}
              onRead={() => read.mutate(n.id, said('Notificação marcada como lida', 'Erro ao marcar como lida'))}
              onDelete={() => remove.mutate(n.id, said('Notificação removida', 'Erro ao remover notificação'))}
            />
          ))}
        </ul>
      )}
      {list.length > 0 ? <p className="text-center text-sm text-stone-500 dark:text-stone-400">{list.length === 1 ? '1 notificação' : `${list.length} notificações`} no total</p> : null}
    </div>
  )
}

function Item({ n, onRead, onDelete }: { n: Notification; onRead: () => void; onDelete: () => void }) {
  const Icon = icons[n.type] ?? Bell
  return (
    <li>
      <Card className={cn('flex gap-3 p-4', !n.read && 'border-brand-300 bg-brand-50/60 dark:border-brand-800 dark:bg-brand-900/20')}>
        <Icon className="mt-0.5 size-5 shrink-0 text-brand-700 dark:text-brand-200" aria-hidden />
        <div className="min-w-0 flex-1 break-words">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-medium">{n.title}</p>
            {!n.read ? <Badge tone="success">Nova</Badge> : null}
          </div>
          {n.description ? <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">{n.description}</p> : null}
          <p className="mt-1 text-xs text-stone-500 dark:text-stone-400">{relativeDate(n.createdAt)}</p>
          <div className="mt-2 flex flex-wrap gap-2">
            {/* The client and the appointment it is about open from here. */}
            {n.clientKey ? (
              <Button size="sm" variant="outline" asChild>
                <Link to={clientPathOf(n.appointmentId ?? n.clientKey)}>Ver cliente</Link>
              </Button>
            ) : null}
            {n.appointmentId ? (
              <Button size="sm" variant="ghost" asChild>
                <Link to={`/appointment/${n.appointmentId}`}>Ver agendamento</Link>
              </Button>
            ) : null}
            {!n.read ? (
              <Button size="sm" variant="outline" onClick={onRead}>
                Marcar como lida
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" onClick={onDelete}>
              Excluir
            </Button>
          </div>
        </div>
      </Card>
    </li>
  )
}
