/**
 * Meta's Embedded Signup in the browser (issue 41 §2): Meta's JS SDK is
 * loaded only when the owner clicks "Conectar meu WhatsApp", FB.login
 * opens Meta's sign-up window with the operator's configuration and asks
 * for a code (response_type 'code'), and the sign-up's session logging
 * message (type WA_EMBEDDED_SIGNUP, from a facebook.com origin only) gives
 * the WABA and phone-number ids. The code and ids go to our server, which
 * does the rest server to server.
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

/** Why the sign-up did not give a code and ids; the message is the owner's (pt-BR). */
export class SignupCancelled extends Error {}

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
 * with SignupCancelled when the owner closes the window or Meta gives no ids.
 */
export async function runEmbeddedSignup(cfg: SignupConfig, waitIds = 15_000): Promise<SignupResult> {
  const FB = await loadFacebookSdk(cfg)
  return new Promise<SignupResult>((resolve, reject) => {
    let code = ''
    let ids: { wabaId: string; phoneNumberId: string } | null = null
    let timer: ReturnType<typeof setTimeout> | undefined
    const done = (err?: Error) => {
      window.removeEventListener('message', onMessage)
      clearTimeout(timer)
      if (err) reject(err)
      else resolve({ code, ...ids! })
    }
    const onMessage = (event: MessageEvent) => {
      if (!fromFacebook(event.origin) || typeof event.data !== 'string') return
      let data: { type?: string; event?: string; data?: { waba_id?: string; phone_number_id?: string; current_step?: string } }
      try {
        data = JSON.parse(event.data)
      } catch {
        return
      }
      if (data.type !== 'WA_EMBEDDED_SIGNUP') return
      if (data.event === 'CANCEL') {
        done(new SignupCancelled('A conexão foi interrompida na janela do Meta. Clique em “Conectar meu WhatsApp” para tentar de novo.'))
      } else if (data.event?.startsWith('FINISH') && data.data?.waba_id && data.data.phone_number_id) {
        ids = { wabaId: String(data.data.waba_id), phoneNumberId: String(data.data.phone_number_id) }
        if (code) done()
      }
    }
    window.addEventListener('message', onMessage)
    FB.login(
      (r) => {
        const c = r.authResponse?.code
        if (!c) {
          done(new SignupCancelled('A janela do Meta foi fechada antes de concluir. Clique em “Conectar meu WhatsApp” para tentar de novo.'))
          return
        }
        code = c
        if (ids) done()
        else timer = setTimeout(() => done(new SignupCancelled('O Meta não informou a conta e o número escolhidos. Clique em “Conectar meu WhatsApp” de novo.')), waitIds)
      },
      {
        config_id: cfg.configId,
        response_type: 'code',
        override_default_response_type: true,
        extras: { setup: {}, sessionInfoVersion: '3' },
      },
    )
  })
}
