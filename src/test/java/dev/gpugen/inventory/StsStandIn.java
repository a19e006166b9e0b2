package dev.gpugen.inventory;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A loopback AWS STS for tests, as strict as the Query API of version 2011-06-15
 * (https://docs.aws.amazon.com/STS/latest/APIReference/): form POST only; {@code Version} and
 * {@code Action} checked; {@code AssumeRole} must be SigV4-signed by a key the shared {@link
 * AwsIdentities} knows and {@code AssumeRoleWithWebIdentity} must not need one; every required
 * parameter present ({@code ValidationError} otherwise, as STS words it), {@code RoleSessionName}
 * and {@code ExternalId} in their documented patterns and lengths, {@code DurationSeconds}
 * 900..43200. A role answers only the principals and the external id it trusts ({@code
 * AccessDenied}), a web identity token must be one issued to the role ({@code
 * InvalidIdentityToken}). Issued credentials are temporary: an {@code ASIA} key id, a secret and a
 * session token, registered with the identities so EC2 accepts them.
 */
public final class StsStandIn implements AutoCloseable {
  private static final Pattern ROLE_ARN =
      Pattern.compile("arn:aws:iam::(\\d{12}):role/([\\w+=,.@/-]+)");
  private static final Pattern SESSION_NAME = Pattern.compile("[\\w+=,.@-]{2,64}");
  private static final Pattern EXTERNAL_ID = Pattern.compile("[\\w+=,.@:/-]{2,1224}");

  /** A role: who may assume it, with which external id, and which web identity tokens. */
  public record Role(
      String arn, List<String> trustedArns, String externalId, List<String> webTokens) {}

  private final HttpServer server;
  private final AwsIdentities identities;
  private final Map<String, Role> roles = new ConcurrentHashMap<>();
  private final List<Map<String, String>> requestLog = new CopyOnWriteArrayList<>();
  private final AtomicInteger issued = new AtomicInteger();

  private StsStandIn(HttpServer server, AwsIdentities identities) {
    this.server = server;
    this.identities = identities;
  }

  /** Starts on 127.0.0.1; issued credentials are added to {@code identities}. */
  public static StsStandIn start(AwsIdentities identities) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    StsStandIn sts = new StsStandIn(server, identities);
    server.createContext("/", sts::handle);
    server.start();
    return sts;
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  public StsStandIn role(Role role) {
    roles.put(role.arn(), role);
    return this;
  }

  /** Every request's form parameters. */
  public List<Map<String, String>> requestLog() {
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
      if (!"POST".equals(exchange.getRequestMethod())) {
        error(exchange, 400, "InvalidAction", "Could not find operation for this request");
        return;
      }
      Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
      requestLog.add(form);
      if (!"2011-06-15".equals(form.get("Version"))) {
        error(
            exchange,
            400,
            "InvalidAction",
            "Could not find operation "
                + form.get("Action")
                + " for version "
                + form.get("Version"));
        return;
      }
      String action = form.getOrDefault("Action", "");
      switch (action) {
        case "AssumeRole" -> assumeRole(exchange, body, form);
        case "AssumeRoleWithWebIdentity" -> assumeRoleWithWebIdentity(exchange, form);
        default ->
            error(
                exchange,
                400,
                "InvalidAction",
                "Could not find operation " + action + " for version 2011-06-15");
      }
    }
  }

  private void assumeRole(HttpExchange exchange, byte[] body, Map<String, String> form)
      throws IOException {
    Object who = identities.verify(exchange, body, "sts");
    if (who instanceof AwsIdentities.Refusal refusal) {
      String code = refusal.code().equals("AuthFailure") ? "InvalidClientTokenId" : refusal.code();
      error(exchange, 403, code, refusal.message());
      return;
    }
    Optional<String> invalid = validate(form, "roleArn", "roleSessionName");
    if (invalid.isPresent()) {
      error(exchange, 400, "ValidationError", invalid.get());
      return;
    }
    String caller = ((AwsIdentities.Identity) who).arn();
    Role role = roles.get(form.get("RoleArn"));
    if (role == null || !role.trustedArns().contains(caller)) {
      error(
          exchange,
          403,
          "AccessDenied",
          "User: "
              + caller
              + " is not authorized to perform: sts:AssumeRole on resource: "
              + form.get("RoleArn"));
      return;
    }
    if (role.externalId() != null && !role.externalId().equals(form.get("ExternalId"))) {
      error(
          exchange,
          403,
          "AccessDenied",
          "User: "
              + caller
              + " is not authorized to perform: sts:AssumeRole on resource: "
              + form.get("RoleArn"));
      return;
    }
    credentials(exchange, "AssumeRole", role, form.get("RoleSessionName"), "");
  }

  private void assumeRoleWithWebIdentity(HttpExchange exchange, Map<String, String> form)
      throws IOException {
    Optional<String> invalid = validate(form, "roleArn", "roleSessionName", "webIdentityToken");
    if (invalid.isPresent()) {
      error(exchange, 400, "ValidationError", invalid.get());
      return;
    }
    Role role = roles.get(form.get("RoleArn"));
    if (role == null || !role.webTokens().contains(form.get("WebIdentityToken"))) {
      error(
          exchange,
          400,
          "InvalidIdentityToken",
          "Couldn't retrieve verification key from your identity provider");
      return;
    }
    credentials(
        exchange,
        "AssumeRoleWithWebIdentity",
        role,
        form.get("RoleSessionName"),
        "      <SubjectFromWebIdentityToken>system:serviceaccount:ci:inventory</SubjectFromWebIdentityToken>\n"
            + "      <Audience>sts.amazonaws.com</Audience>\n"
            + "      <Provider>arn:aws:iam::123456789012:oidc-provider/token.example</Provider>\n");
  }

  /** STS's own wording for a missing or malformed parameter, or empty if all are fine. */
  private static Optional<String> validate(Map<String, String> form, String... required) {
    for (String member : required) {
      String param = Character.toUpperCase(member.charAt(0)) + member.substring(1);
      if (form.get(param) == null || form.get(param).isEmpty()) {
        return Optional.of(
            "1 validation error detected: Value null at '"
                + member
                + "' failed to satisfy constraint: Member must not be null");
      }
    }
    if (!ROLE_ARN.matcher(form.get("RoleArn")).matches()) {
      return Optional.of(form.get("RoleArn") + " is invalid");
    }
    if (!SESSION_NAME.matcher(form.get("RoleSessionName")).matches()) {
      return Optional.of(
          "1 validation error detected: Value '"
              + form.get("RoleSessionName")
              + "' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*");
    }
    String externalId = form.get("ExternalId");
    if (externalId != null && !EXTERNAL_ID.matcher(externalId).matches()) {
      return Optional.of(
          "1 validation error detected: Value at 'externalId' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@:/-]*");
    }
    String duration = form.get("DurationSeconds");
    if (duration != null) {
      int seconds;
      try {
        seconds = Integer.parseInt(duration);
      } catch (NumberFormatException e) {
        seconds = -1;
      }
      if (seconds < 900 || seconds > 43200) {
        return Optional.of(
            "1 validation error detected: Value '"
                + duration
                + "' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900");
      }
    }
    return Optional.empty();
  }

  private void credentials(
      HttpExchange exchange, String action, Role role, String session, String extra)
      throws IOException {
    int n = issued.incrementAndGet();
    String keyId = String.format("ASIASTS%013d", n);
    String secret = UUID.randomUUID().toString();
    String token = "FwoGZXIvYXdzE" + UUID.randomUUID().toString().replace("-", "");
    String roleName = role.arn().substring(role.arn().indexOf('/') + 1);
    String account = role.arn().split(":")[4];
    String assumed = "arn:aws:sts::" + account + ":assumed-role/" + roleName + "/" + session;
    identities.add(new AwsIdentities.Identity(keyId, secret, token, assumed));
    String xml =
        "<"
            + action
            + "Response xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
            + "  <"
            + action
            + "Result>\n"
            + extra
            + "    <AssumedRoleUser>\n"
            + "      <Arn>"
            + assumed
            + "</Arn>\n"
            + "      <AssumedRoleId>AROA3XFRBF535PLBIFPI4:"
            + session
            + "</AssumedRoleId>\n"
            + "    </AssumedRoleUser>\n"
            + "    <Credentials>\n"
            + "      <AccessKeyId>"
            + keyId
            + "</AccessKeyId>\n"
            + "      <SecretAccessKey>"
            + secret
            + "</SecretAccessKey>\n"
            + "      <SessionToken>"
            + token
            + "</SessionToken>\n"
            + "      <Expiration>"
            + Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS)
            + "</Expiration>\n"
            + "    </Credentials>\n"
            + "  </"
            + action
            + "Result>\n"
            + "  <ResponseMetadata>\n"
            + "    <RequestId>"
            + UUID.randomUUID()
            + "</RequestId>\n"
            + "  </ResponseMetadata>\n"
            + "</"
            + action
            + "Response>\n";
    send(exchange, 200, xml);
  }

  private static void error(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    String xml =
        "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
            + "  <Error>\n    <Type>Sender</Type>\n    <Code>"
            + code
            + "</Code>\n"
            + "    <Message>"
            + message.replace("&", "&amp;").replace("<", "&lt;")
            + "</Message>\n"
            + "  </Error>\n  <RequestId>"
            + UUID.randomUUID()
            + "</RequestId>\n</ErrorResponse>\n";
    send(exchange, status, xml);
  }

  private static void send(HttpExchange exchange, int status, String xml) throws IOException {
    byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/xml");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  static Map<String, String> form(String body) {
    Map<String, String> form = new LinkedHashMap<>();
    if (body.isEmpty()) {
      return form;
    }
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      form.put(
          URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(eq < 0 ? "" : pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return form;
  }
}
