package dev.gpugen.inventory;

import com.sun.net.httpserver.HttpExchange;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The credentials the loopback AWS stand-ins know, and Signature Version 4 checked the way AWS
 * checks it (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html): the
 * canonical request from the method, path, query, the signed headers and the payload hash; the
 * string to sign with the credential scope; the signing key derived from the secret, date, region
 * and service. Temporary credentials (STS, SSO) need their session token in X-Amz-Security-Token.
 */
public final class AwsIdentities {
  /** One access key: its secret, its session token (temporary credentials), whose it is. */
  public record Identity(String accessKeyId, String secret, String sessionToken, String arn) {}

  /** Why a request is refused: an AWS error code and message. */
  public record Refusal(int status, String code, String message) {}

  private static final Pattern AUTHORIZATION =
      Pattern.compile(
          "AWS4-HMAC-SHA256 Credential=([^/]+)/(\\d{8})/([^/]+)/([^/]+)/aws4_request,\\s*"
              + "SignedHeaders=([a-z0-9;-]+),\\s*Signature=([0-9a-f]{64})");
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final Map<String, Identity> keys = new ConcurrentHashMap<>();

  /** Knows the long-term key the tests use, {@code AKIDEXAMPLE}/{@code secret}. */
  public static AwsIdentities withTestUser() {
    AwsIdentities ids = new AwsIdentities();
    ids.add(
        new Identity(
            Ec2StandIn.ACCESS_KEY_ID, "secret", null, "arn:aws:iam::123456789012:user/test"));
    return ids;
  }

  public AwsIdentities add(Identity identity) {
    keys.put(identity.accessKeyId(), identity);
    return this;
  }

  /** Forgets every key but {@code keep}. */
  public AwsIdentities retainOnly(List<String> keep) {
    keys.keySet().retainAll(keep);
    return this;
  }

  /**
   * The identity that signed {@code exchange} for {@code service}, or why the request is refused.
   *
   * @param body the request body (its SHA-256 is part of the signature)
   */
  public Object verify(HttpExchange exchange, byte[] body, String service) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header == null) {
      return new Refusal(
          400, "MissingAuthenticationToken", "Request is missing Authentication Token");
    }
    Matcher m = AUTHORIZATION.matcher(header);
    if (!m.matches()) {
      return new Refusal(400, "IncompleteSignature", "The request signature is malformed.");
    }
    Identity identity = keys.get(m.group(1));
    if (identity == null) {
      return new Refusal(
          401, "AuthFailure", "AWS was not able to validate the provided access credentials");
    }
    if (!m.group(4).equals(service)) {
      return new Refusal(
          403,
          "SignatureDoesNotMatch",
          "Credential should be scoped to correct service: " + service);
    }
    String amzDate = exchange.getRequestHeaders().getFirst("X-Amz-Date");
    Instant when;
    try {
      when = Instant.from(AMZ_DATE.parse(amzDate == null ? "" : amzDate));
    } catch (RuntimeException e) {
      return new Refusal(400, "IncompleteSignature", "X-Amz-Date is missing or malformed.");
    }
    if (Duration.between(when, Instant.now()).abs().compareTo(Duration.ofMinutes(15)) > 0) {
      return new Refusal(400, "RequestExpired", "Request has expired.");
    }
    if (!amzDate.startsWith(m.group(2))) {
      return new Refusal(
          403, "SignatureDoesNotMatch", "Date in Credential scope does not match X-Amz-Date.");
    }
    List<String> signed = List.of(m.group(5).split(";"));
    if (!signed.contains("host") || !signed.contains("x-amz-date")) {
      return new Refusal(
          403, "SignatureDoesNotMatch", "host and x-amz-date must be signed headers.");
    }
    String token = exchange.getRequestHeaders().getFirst("X-Amz-Security-Token");
    if (identity.sessionToken() != null
        && (token == null
            || !signed.contains("x-amz-security-token")
            || !token.equals(identity.sessionToken()))) {
      return new Refusal(
          401, "AuthFailure", "The security token included in the request is invalid.");
    }
    StringBuilder canonical = new StringBuilder();
    canonical.append(exchange.getRequestMethod()).append('\n');
    String path = exchange.getRequestURI().getRawPath();
    canonical.append(path == null || path.isEmpty() ? "/" : path).append('\n');
    canonical.append(canonicalQuery(exchange.getRequestURI().getRawQuery())).append('\n');
    for (String name : signed) {
      List<String> values = exchange.getRequestHeaders().get(name);
      if (values == null) {
        return new Refusal(
            403, "SignatureDoesNotMatch", "Signed header " + name + " is not in the request.");
      }
      List<String> trimmed = new ArrayList<>();
      values.forEach(v -> trimmed.add(v.trim().replaceAll(" +", " ")));
      canonical.append(name).append(':').append(String.join(",", trimmed)).append('\n');
    }
    canonical.append('\n').append(String.join(";", signed)).append('\n');
    canonical.append(hex(sha256(body)));
    String scope = m.group(2) + "/" + m.group(3) + "/" + m.group(4) + "/aws4_request";
    String toSign =
        "AWS4-HMAC-SHA256\n"
            + amzDate
            + "\n"
            + scope
            + "\n"
            + hex(sha256(canonical.toString().getBytes(StandardCharsets.UTF_8)));
    byte[] key = ("AWS4" + identity.secret()).getBytes(StandardCharsets.UTF_8);
    for (String part : List.of(m.group(2), m.group(3), m.group(4), "aws4_request")) {
      key = hmac(key, part);
    }
    String expected = hex(hmac(key, toSign));
    if (!MessageDigest.isEqual(
        expected.getBytes(StandardCharsets.US_ASCII),
        m.group(6).getBytes(StandardCharsets.US_ASCII))) {
      return new Refusal(
          403,
          "SignatureDoesNotMatch",
          "The request signature we calculated does not match the signature you provided.");
    }
    return identity;
  }

  /** The identity of {@code accessKeyId}, if known. */
  public Optional<Identity> get(String accessKeyId) {
    return Optional.ofNullable(keys.get(accessKeyId));
  }

  private static String canonicalQuery(String raw) {
    if (raw == null || raw.isEmpty()) {
      return "";
    }
    TreeMap<String, List<String>> params = new TreeMap<>();
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      params.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
    }
    List<String> parts = new ArrayList<>();
    params.forEach((k, vs) -> vs.stream().sorted().forEach(v -> parts.add(k + "=" + v)));
    return String.join("&", parts);
  }

  static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes).toLowerCase(Locale.ROOT);
  }
}
