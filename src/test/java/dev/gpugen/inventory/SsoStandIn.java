package dev.gpugen.inventory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback IAM Identity Center for tests: the SSO portal's GetRoleCredentials ({@code GET
 * /federation/credentials?account_id=&role_name=} with the {@code x-amz-sso_bearer_token} header;
 * https://docs.aws.amazon.com/singlesignon/latest/PortalAPIReference/API_GetRoleCredentials.html)
 * and SSO OIDC's CreateToken with the refresh_token grant ({@code POST /token};
 * https://docs.aws.amazon.com/singlesignon/latest/OIDCAPIReference/API_CreateToken.html). Missing
 * parameters are {@code InvalidRequestException}, an unknown or expired access token {@code
 * UnauthorizedException} (401), a role not assigned to the token's user {@code ForbiddenException}
 * (403), a wrong client or refresh token {@code invalid_grant}. Issued role credentials are
 * registered with the shared identities so EC2 accepts them.
 */
public final class SsoStandIn implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final AwsIdentities identities;

  /** Access token to the account/role pairs it may use. */
  private final Map<String, List<String>> tokens = new ConcurrentHashMap<>();

  /** Refresh token to the client id it belongs to. */
  private final Map<String, String> refreshTokens = new ConcurrentHashMap<>();

  private final Map<String, String> clients = new ConcurrentHashMap<>();
  private final List<String> requestLog = new CopyOnWriteArrayList<>();

  private SsoStandIn(HttpServer server, AwsIdentities identities) {
    this.server = server;
    this.identities = identities;
  }

  public static SsoStandIn start(AwsIdentities identities) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    SsoStandIn sso = new SsoStandIn(server, identities);
    server.createContext("/", sso::handle);
    server.start();
    return sso;
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** {@code accessToken} may get credentials for {@code account}/{@code role}. */
  public SsoStandIn accessToken(String accessToken, String account, String role) {
    tokens
        .computeIfAbsent(accessToken, k -> new CopyOnWriteArrayList<>())
        .add(account + "/" + role);
    return this;
  }

  /** A registered OIDC client and a refresh token it may trade for a new access token. */
  public SsoStandIn refreshToken(String clientId, String clientSecret, String refreshToken) {
    clients.put(clientId, clientSecret);
    refreshTokens.put(refreshToken, clientId);
    return this;
  }

  /** Method and path of every request. */
  public List<String> requestLog() {
    return List.copyOf(requestLog);
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String path = exchange.getRequestURI().getPath();
      requestLog.add(exchange.getRequestMethod() + " " + path);
      if (exchange.getRequestMethod().equals("GET") && path.equals("/federation/credentials")) {
        roleCredentials(exchange);
      } else if (exchange.getRequestMethod().equals("POST") && path.equals("/token")) {
        createToken(exchange, body);
      } else {
        error(exchange, 404, "ResourceNotFoundException", "No such operation");
      }
    }
  }

  private void roleCredentials(HttpExchange exchange) throws IOException {
    Map<String, String> query =
        StsStandIn.form(
            exchange.getRequestURI().getRawQuery() == null
                ? ""
                : exchange.getRequestURI().getRawQuery());
    String account = query.get("account_id");
    String role = query.get("role_name");
    String token = exchange.getRequestHeaders().getFirst("x-amz-sso_bearer_token");
    if (account == null || role == null || token == null || !account.matches("\\d{12}")) {
      error(
          exchange,
          400,
          "InvalidRequestException",
          "account_id, role_name and the bearer token are required");
      return;
    }
    List<String> allowed = tokens.get(token);
    if (allowed == null) {
      error(exchange, 401, "UnauthorizedException", "Session token not found or invalid");
      return;
    }
    if (!allowed.contains(account + "/" + role)) {
      error(exchange, 403, "ForbiddenException", "No access");
      return;
    }
    String keyId =
        "ASIASSO"
            + String.format(
                "%013d", Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000_000_000L));
    String secret = UUID.randomUUID().toString();
    String session = "IQoJb3JpZ2luX2Vj" + UUID.randomUUID().toString().replace("-", "");
    identities.add(
        new AwsIdentities.Identity(
            keyId,
            secret,
            session,
            "arn:aws:sts::"
                + account
                + ":assumed-role/AWSReservedSSO_"
                + role
                + "_0123456789abcdef/user"));
    String json =
        JSON.writeValueAsString(
            Map.of(
                "roleCredentials",
                Map.of(
                    "accessKeyId", keyId,
                    "secretAccessKey", secret,
                    "sessionToken", session,
                    "expiration", Instant.now().plus(1, ChronoUnit.HOURS).toEpochMilli())));
    send(exchange, 200, json);
  }

  private void createToken(HttpExchange exchange, byte[] body) throws IOException {
    JsonNode request;
    try {
      request = JSON.readTree(body);
    } catch (IOException e) {
      oidcError(exchange, "invalid_request", "body is not JSON");
      return;
    }
    String clientId = request.path("clientId").asText(null);
    String clientSecret = request.path("clientSecret").asText(null);
    String grant = request.path("grantType").asText(null);
    if (clientId == null || clientSecret == null || grant == null) {
      oidcError(exchange, "invalid_request", "clientId, clientSecret and grantType are required");
      return;
    }
    if (!clientSecret.equals(clients.get(clientId))) {
      error(exchange, 401, "InvalidClientException", "invalid_client");
      return;
    }
    if (!grant.equals("refresh_token")) {
      oidcError(exchange, "unsupported_grant_type", grant);
      return;
    }
    String refresh = request.path("refreshToken").asText(null);
    if (refresh == null || !clientId.equals(refreshTokens.remove(refresh))) {
      oidcError(exchange, "invalid_grant", "Invalid refresh token provided");
      return;
    }
    // The new access token may do what any token of this client could.
    String access = "aoa" + UUID.randomUUID().toString().replace("-", "");
    String nextRefresh = "aorrefresh" + UUID.randomUUID().toString().replace("-", "");
    List<String> grants = new CopyOnWriteArrayList<>();
    tokens.values().forEach(grants::addAll);
    tokens.put(access, grants);
    refreshTokens.put(nextRefresh, clientId);
    send(
        exchange,
        200,
        JSON.writeValueAsString(
            Map.of(
                "accessToken",
                access,
                "expiresIn",
                28800,
                "refreshToken",
                nextRefresh,
                "tokenType",
                "Bearer")));
  }

  private static void oidcError(HttpExchange exchange, String error, String description)
      throws IOException {
    exchange.getResponseHeaders().set("x-amzn-ErrorType", "InvalidGrantException");
    send(
        exchange,
        400,
        JSON.writeValueAsString(Map.of("error", error, "error_description", description)));
  }

  private static void error(HttpExchange exchange, int status, String type, String message)
      throws IOException {
    exchange.getResponseHeaders().set("x-amzn-ErrorType", type);
    send(exchange, status, JSON.writeValueAsString(Map.of("message", message)));
  }

  private static void send(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
