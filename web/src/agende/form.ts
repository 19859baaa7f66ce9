/**
 * Forms for the public booking pages' light build: the subset of
 * react-hook-form's useForm those pages (through lib/form.ts) use, with the
 * same meaning — values kept outside React state, a resolver (the zod
 * schema) deciding what is valid, errors shown after a submit and re-checked
 * as the field is corrected, or on every change in 'onChange' mode.
 * vite.agende.config.ts puts it in place of 'react-hook-form' there, and
 * tsconfig.agende.json type-checks the public pages against it, so a
 * useForm option or method it does not implement fails `tsc`.
 *
 * Fields are flat (text inputs, text areas, and values set with setValue);
 * nested field names are not supported.
 */
import { useReducer, useRef, type ChangeEvent, type FocusEvent } from 'react'

export type FieldValues = Record<string, unknown>
export type DefaultValues<T> = T
export type FieldError = { type: string; message?: string }
/** The errors as react-hook-form reports them for flat fields, and the form's own under root. */
export type FieldErrors<T> = { [K in keyof T]?: FieldError } & { root?: Record<string, FieldError> }

export type ResolverResult<In, Out> = { values: Out; errors: Record<string, never> } | { values: Record<string, never>; errors: FieldErrors<In> }
export type Resolver<In, Context, Out> = (values: In, context: Context | undefined, options: object) => Promise<ResolverResult<In, Out>>

/** The useForm options this stand-in implements; any other is a type error. */
export type UseFormProps<In, Out> = {
  resolver: Resolver<In, unknown, Out>
  defaultValues: DefaultValues<In>
  mode?: 'onSubmit' | 'onChange'
}

type Name<In> = keyof In & string
type Editable = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

export type UseFormRegisterReturn = {
  name: string
  ref: (el: Editable | null) => void
  onChange: (e: ChangeEvent<Editable>) => Promise<void>
  onBlur: (e: FocusEvent<Editable>) => Promise<void>
}

// Context is react-hook-form's resolver context, taken for the same signature.
export type UseFormReturn<In extends FieldValues, Context = unknown, Out = In> = {
  /** Never set: carries Context for the type only. */
  readonly context?: Context
  register: (name: Name<In>) => UseFormRegisterReturn
  handleSubmit: (onValid: (values: Out) => unknown, onInvalid?: (errors: FieldErrors<In>) => unknown) => (e?: { preventDefault: () => void }) => Promise<void>
  watch: <K extends Name<In>>(name: K) => In[K]
  getValues: () => In
  setValue: <K extends Name<In>>(name: K, value: In[K], options?: { shouldDirty?: boolean; shouldValidate?: boolean }) => void
  setError: (name: Name<In> | `root.${string}`, error: FieldError) => void
  reset: (values?: In) => void
  formState: { errors: FieldErrors<In>; isValid: boolean; isSubmitting: boolean; isSubmitted: boolean }
}

type State<In, Out> = {
  values: In
  errors: FieldErrors<In>
  isValid: boolean
  isSubmitting: boolean
  isSubmitted: boolean
  elements: Map<string, Editable>
  options: UseFormProps<In, Out>
}

/** O, with every key UseFormProps does not have made impossible. */
type Exactly<O, In, Out> = O & { [K in Exclude<keyof O, keyof UseFormProps<In, Out>>]: never }

export function useForm<In extends FieldValues, _Context = unknown, Out = In>(props: Exactly<UseFormProps<In, Out>, In, Out>): UseFormReturn<In, _Context, Out> {
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  const ref = useRef<State<In, Out> | null>(null)
  if (ref.current === null) {
    ref.current = { values: { ...props.defaultValues }, errors: {}, isValid: false, isSubmitting: false, isSubmitted: false, elements: new Map(), options: props }
    if (props.mode === 'onChange') void validate(ref.current, false).then(rerender)
  }
  const s = ref.current
  s.options = props

  // Runs the resolver; shows its errors (all of them, or none when show is false: isValid only).
  async function validate(st: State<In, Out>, show: boolean | Name<In>): Promise<ResolverResult<In, Out>> {
    const result = await st.options.resolver(st.values, undefined, {})
    const errors = result.errors as FieldErrors<In>
    st.isValid = Object.keys(errors).length === 0
    if (show === true) st.errors = { ...errors, root: st.errors.root }
    else if (show) st.errors = { ...st.errors, [show]: errors[show] }
    return result
  }

  const changed = async (name: Name<In>) => {
    if (s.options.mode === 'onChange' || s.isSubmitted) await validate(s, name)
    rerender()
  }

  const show = (name: string, value: unknown) => {
    const el = s.elements.get(name)
    if (el && typeof value === 'string' && el.value !== value) el.value = value
  }

  return {
    register: (name) => ({
      name,
      ref: (el) => {
        if (!el) {
          s.elements.delete(name)
          return
        }
        s.elements.set(name, el)
        show(name, s.values[name])
      },
      onChange: async (e) => {
        s.values = { ...s.values, [name]: e.target.value }
        await changed(name)
      },
      onBlur: async () => {},
    }),
    handleSubmit: (onValid, onInvalid) => async (e) => {
      e?.preventDefault()
      s.isSubmitting = true
      s.isSubmitted = true
      s.errors = { ...s.errors, root: undefined }
      rerender()
      try {
        const result = await validate(s, true)
        if (Object.keys(result.errors).length === 0) await onValid(result.values as Out)
        else await onInvalid?.(s.errors)
      } finally {
        s.isSubmitting = false
        rerender()
      }
    },
    watch: (name) => s.values[name],
    getValues: () => s.values,
    setValue: (name, value, options) => {
      s.values = { ...s.values, [name]: value }
      show(name, value)
      if (options?.shouldValidate) void changed(name)
      else rerender()
    },
    setError: (name, error) => {
      if (name.startsWith('root.')) s.errors = { ...s.errors, root: { ...s.errors.root, [name.slice(5)]: error } }
      else s.errors = { ...s.errors, [name]: error }
      rerender()
    },
    reset: (values) => {
      s.values = { ...(values ?? s.options.defaultValues) }
      s.errors = {}
      s.isSubmitted = false
      for (const [name, value] of Object.entries(s.values)) show(name, value)
      if (s.options.mode === 'onChange') void validate(s, false).then(rerender)
      else rerender()
    },
    formState: { errors: s.errors, isValid: s.isValid, isSubmitting: s.isSubmitting, isSubmitted: s.isSubmitted },
  }
}
