/**
 * Meta's Embedded Signup in the browser (issue 41 §2): Meta's JS SDK is
 * loaded only when the owner clicks "Conectar meu WhatsApp", FB.login
 * opens Meta's sign-up window with the operator's configuration and asks
 * for a code (response_type 'code'), and the sign-up's session logging
 * message (type WA_EMBEDDED_SIGNUP, from a facebook.com origin only) gives
 * the WABA and phone-number ids. The code and ids go to our server, which
 * does the rest server to server.
 *
 * As Meta's Embedded Signup documentation (implementation, versions 3 and 4)
 * describes the message, a string of JSON:
 *   - {type, event: 'FINISH', data: {phone_number_id, waba_id, business_id}}: done;
 *   - {type, event: 'FINISH_ONLY_WABA', data: {waba_id, business_id}}: the
 *     business finished without a phone number (v3 and later allow it), so
 *     there is nothing to send from yet;
 *   - {type, event: 'CANCEL', data: {current_step}}: the window was left at
 *     that step; {type, event: 'CANCEL', data: {error_message, error_id,
 *     session_id, timestamp}}: Meta showed the business an error ('ERROR'
 *     is taken the same way).
 * The code FB.login returns lives 30 seconds: it goes to the server at once.
 */

export type SignupConfig = { appId: string; configId: string; graphVersion: string }
export type SignupResult = { code: string; wabaId: string; phoneNumberId: string }

type LoginResponse = { authResponse?: { code?: string } | null; status?: string }
type FacebookSdk = {
  init: (o: { appId: string; autoLogAppEvents?: boolean; xfbml?: boolean; version: string }) => void
  login: (cb: (r: LoginResponse) => void, o: Record<string, unknown>) => void
}
declare global {
  interface Window {
    FB?: FacebookSdk
    fbAsyncInit?: () => void
  }
}

/**
 * Why the sign-up did not give a code and ids; the message is the owner's
 * (pt-BR). tone says how to show it: 'quiet' the owner left Meta's window
 * (nothing went wrong), 'warn' something to do at Meta before connecting,
 * 'error' a failure.
 */
export class SignupCancelled extends Error {
  constructor(
    message: string,
    readonly tone: 'quiet' | 'warn' | 'error' = 'error',
  ) {
    super(message)
  }
}

type SessionMessage = {
  type?: string
  event?: string
  data?: { waba_id?: string; phone_number_id?: string; current_step?: string; error_message?: string; error_id?: string }
}

const sdkURL = 'https://connect.facebook.net/pt_BR/sdk.js'
let loading: Promise<FacebookSdk> | null = null

/** Loads Meta's JS SDK once (a script already on the page is used as it is). */
export function loadFacebookSdk(cfg: SignupConfig): Promise<FacebookSdk> {
  if (window.FB) {
    window.FB.init({ appId: cfg.appId, autoLogAppEvents: true, xfbml: false, version: cfg.graphVersion })
    return Promise.resolve(window.FB)
  }
  loading ??= new Promise<FacebookSdk>((resolve, reject) => {
    window.fbAsyncInit = () => {
      window.FB!.init({ appId: cfg.appId, autoLogAppEvents: true, xfbml: false, version: cfg.graphVersion })
      resolve(window.FB!)
    }
    const s = document.createElement('script')
    s.src = sdkURL
    s.async = true
    s.crossOrigin = 'anonymous'
    s.onerror = () => {
      loading = null
      reject(new SignupCancelled('Não foi possível carregar a janela do Meta. Confira a conexão e tente de novo.'))
    }
    document.body.appendChild(s)
  })
  return loading
}

/** Whether a message event comes from Meta (facebook.com or a subdomain, over https). */
export function fromFacebook(origin: string): boolean {
  try {
    const u = new URL(origin)
    return u.protocol === 'https:' && (u.hostname === 'facebook.com' || u.hostname.endsWith('.facebook.com'))
  } catch {
    return false
  }
}

/**
 * Opens Meta's sign-up window and resolves with the code and ids once both
 * FB.login's answer and the session logging message have come; rejects
 * with SignupCancelled when the owner closes the window, Meta reports an
 * error, or the sign-up ends without a number.
 */
export async function runEmbeddedSignup(cfg: SignupConfig, waitIds = 15_000): Promise<SignupResult> {
  const FB = await loadFacebookSdk(cfg)
  return new Promise<SignupResult>((resolve, reject) => {
    let code = ''
    let ids: { wabaId: string; phoneNumberId: string } | null = null
    let timer: ReturnType<typeof setTimeout> | undefined
    let settled = false
    const done = (err?: Error) => {
      if (settled) return
      settled = true
      window.removeEventListener('message', onMessage)
      clearTimeout(timer)
      if (err) reject(err)
      else resolve({ code, ...ids! })
    }
    const onMessage = (event: MessageEvent) => {
      if (!fromFacebook(event.origin)) return
      let msg: SessionMessage
      try {
        msg = typeof event.data === 'string' ? JSON.parse(event.data) : event.data
      } catch {
        return
      }
      if (!msg || msg.type !== 'WA_EMBEDDED_SIGNUP') return
      const data = msg.data ?? {}
      if (msg.event === 'FINISH' && data.waba_id && data.phone_number_id) {
        ids = { wabaId: String(data.waba_id), phoneNumberId: String(data.phone_number_id) }
        if (code) done()
      } else if (msg.event === 'FINISH_ONLY_WABA' || (msg.event === 'FINISH' && data.waba_id)) {
        done(
          new SignupCancelled(
            'Sua conta do WhatsApp Business foi criada no Meta, mas ainda sem um número de telefone, e é dele que as mensagens saem. Clique em “Conectar meu WhatsApp” de novo e, na janela do Meta, escolha ou cadastre o número da clínica.',
            'warn',
          ),
        )
      } else if ((msg.event === 'CANCEL' || msg.event === 'ERROR') && (data.error_message || data.error_id || msg.event === 'ERROR')) {
        const ref = data.error_id ? ` (código ${String(data.error_id).slice(0, 32)})` : ''
        done(new SignupCancelled(`O Meta mostrou um erro na janela de conexão${ref} e o número não foi conectado. Clique em “Conectar meu WhatsApp” para tentar de novo.`))
      } else if (msg.event === 'CANCEL') {
        done(new SignupCancelled('Conexão não concluída: a janela do Meta foi fechada antes do fim. Quando quiser, clique em “Conectar meu WhatsApp” para continuar.', 'quiet'))
      }
    }
    window.addEventListener('message', onMessage)
    FB.login(
      (r) => {
        const c = r.authResponse?.code
        if (!c) {
          done(new SignupCancelled('Conexão não concluída: a janela do Meta foi fechada antes do fim. Quando quiser, clique em “Conectar meu WhatsApp” para continuar.', 'quiet'))
          return
        }
        code = c
        if (ids) done()
        else if (!settled) timer = setTimeout(() => done(new SignupCancelled('O Meta não informou a conta e o número escolhidos. Clique em “Conectar meu WhatsApp” de novo.')), waitIds)
      },
      {
        config_id: cfg.configId,
        response_type: 'code',
        override_default_response_type: true,
        // Embedded Signup v4 (v2 and v3 end on 15 Oct 2026); session logging message format 3; no featureType:
        // Meta's default flow, with the phone number (only_waba_sharing would skip it, whatsapp_business_app_onboarding is coexistence).
        extras: { setup: {}, sessionInfoVersion: '3', version: 'v4' },
      },
    )
  })
}
