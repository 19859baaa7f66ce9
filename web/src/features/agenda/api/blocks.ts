import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { refreshAppointments } from '@/lib/api/refresh'

export const createBlock = (body: Schemas['BlockInput']) => request('post', '/api/blocks', { body, auth: true })
export const previewBlock = (body: Schemas['BlockInput']) => request('post', '/api/blocks/preview', { body, auth: true })
export const previewDayOff = (body: Schemas['DayOffInput']) => request('post', '/api/days-off/preview', { body, auth: true })
export const deleteBlock = (id: string) => request('delete', '/api/blocks/{id}', { path: { id }, auth: true })

function useBlockChange<T, R>(fn: (v: T) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    // The grid carries the blocks, and a block changes what is free: the whole book is read again.
    onSuccess: () => refreshAppointments(qc),
  })
}

/** Takes a range of a date out of the agenda; the agenda's blocks are read again. */
export const useCreateBlock = () => useBlockChange(createBlock)

/** Gives a block's time back; the agenda's blocks are read again. */
export const useDeleteBlock = () => useBlockChange(deleteBlock)

/** The confirmed appointments a block or a day off would cover; nothing is saved. */
export const usePreviewBlock = () =>
  useMutation({ mutationFn: (v: { wholeDay: boolean; block: Schemas['BlockInput'] }) => (v.wholeDay ? previewDayOff({ professionalId: v.block.professionalId, start: v.block.date, end: v.block.date }) : previewBlock(v.block)) })
