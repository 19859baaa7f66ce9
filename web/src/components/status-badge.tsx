import { Badge } from '@/components/ui/badge'
import { statusLabel } from '@/lib/format'

/** An appointment's status as a coloured badge (the agenda's details and the client's history). */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'confirmed' ? 'success' : status === 'cancelled' ? 'danger' : status === 'completed' ? 'neutral' : 'warning'
  return <Badge tone={tone}>{statusLabel(status)}</Badge>
}
