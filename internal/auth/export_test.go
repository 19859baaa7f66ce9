package auth

// RefreshLeeway is refreshLeeway, for the black-box tests.
const RefreshLeeway = refreshLeeway
