// Type tests, checked by `tsc -b` through tsconfig.agende.json only (where
// the libraries' names resolve to the light build's stand-ins, as in that
// build): using what a stand-in does not implement must fail to compile.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useParams } from 'react-router'
import { toast } from 'sonner'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import * as z from 'zod/mini'
import { cva, type VariantProps } from 'class-variance-authority'

export function Supported() {
  const { username = '' } = useParams()
  const q = useQuery({
    queryKey: ['profile', username],
    queryFn: async () => ({ name: 'Ana' }),
    enabled: username !== '',
    retry: (n, e) => e.message !== 'gone' && n < 1,
    staleTime: 60_000,
  })
  const name: string | undefined = q.data?.name
  const opts = queryOptions({ queryKey: ['days'], queryFn: async () => [1, 2] })
  const days = useQuery(opts).data?.length
  useQueryClient().setQueryData<number>(['n'], (old) => (old ?? 0) + 1)
  toast.success('ok', { description: name ?? String(days) })
  useNavigate()('/agende/ana', { replace: true })
  return Link({ to: '/agende/ana' })
}

export function Unsupported() {
  // @ts-expect-error the stand-in never refetches on focus (the default everywhere)
  useQuery({ queryKey: ['x'], queryFn: async () => 1, refetchOnWindowFocus: true })
  // @ts-expect-error no select in the stand-in
  useQuery({ queryKey: ['x'], queryFn: async () => 1, select: (n: number) => n * 2 })
  const spread = { refetchIntervalInBackground: true }
  // @ts-expect-error not even through a spread
  useQuery({ queryKey: ['x'], queryFn: async () => 1, ...spread })
  // @ts-expect-error nor in queryOptions
  queryOptions({ queryKey: ['x'], queryFn: async () => 1, gcTime: 0 })
  // @ts-expect-error the stand-in router navigates to paths only, not through history
  useNavigate()(-1)
  // @ts-expect-error the toast stand-in takes a description and a duration only
  toast.error('erro', { action: { label: 'Desfazer', onClick: () => {} } })
}

export function Mutations() {
  const qc = useQueryClient()
  const m = useMutation({
    mutationFn: (id: string) => Promise.resolve({ id }),
    onSuccess: (data) => qc.invalidateQueries({ queryKey: ['x', data.id] }),
  })
  m.mutate('a', { onError: (e) => toast.error(e.message) })
  const none = useMutation({ mutationFn: () => Promise.resolve(1) })
  void none.mutateAsync()
  // @ts-expect-error mutations are not retried by the stand-in
  useMutation({ mutationFn: () => Promise.resolve(1), retry: 1 })
}

export function Forms() {
  const schema = z.object({ name: z.string() })
  const f = useForm<{ name: string }, unknown, { name: string }>({ resolver: zodResolver(schema), defaultValues: { name: '' }, mode: 'onChange' })
  const name: string = f.watch('name')
  f.setError('root.server', { type: 'server', message: name })
  void f.handleSubmit((v) => v.name)
  // @ts-expect-error the stand-in validates on submit or on change, not on blur
  useForm({ resolver: zodResolver(schema), defaultValues: { name: '' }, mode: 'onBlur' })
  // @ts-expect-error nor does it unregister fields
  useForm({ resolver: zodResolver(schema), defaultValues: { name: '' }, shouldUnregister: true })
  // @ts-expect-error flat fields only: no field names outside the values
  f.register('name.first')
  // @ts-expect-error no field arrays or controllers
  void f.control
}

export function Variants() {
  const v = cva('base', { variants: { size: { sm: 'h-9', lg: 'h-12' } }, defaultVariants: { size: 'sm' } })
  const picked: string = v({ size: 'lg' }) + v({ size: null }) + v()
  const props: VariantProps<typeof v> = { size: 'sm' }
  // @ts-expect-error only the declared values of a variant
  v({ size: 'xl' })
  // @ts-expect-error no class or className through the variant function
  v({ className: 'x' })
  // @ts-expect-error no compound variants
  cva('base', { variants: { size: { sm: 'h-9' } }, compoundVariants: [{ size: 'sm', class: 'x' }] })
  return [picked, props]
}
