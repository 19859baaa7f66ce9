import BookingPage from './BookingPage'

/** /booking?username=… — the reading of the form where the e-mail is required. */
export default function BookingRoutePage() {
  return <BookingPage variant="booking" />
}
