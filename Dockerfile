# Agendei in a container: one static binary with the web app inside.
# Build:  docker build -t agendei .
# Run:    docker run -p 8080:8080 -v agendei-data:/data agendei
FROM node:20-bookworm AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm install --no-audit --no-fund
COPY web/ ./
COPY api/ /src/api/
RUN npm run build

FROM golang:1.26-bookworm AS server
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/web/dist ./web/dist
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /agendei ./cmd/agendei

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=server /agendei /agendei
ENV AGENDEI_ADDR=:8080 AGENDEI_DATA_DIR=/data AGENDEI_LOG_FORMAT=json
VOLUME /data
EXPOSE 8080
USER nonroot
ENTRYPOINT ["/agendei", "serve"]
