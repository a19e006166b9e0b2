package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.inventory.StandIns.Run;
import dev.gpugen.testing.RealToolsTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every source of the default credential chain, end to end: the real jar's main in its own process
 * with only the environment and ~/.aws files a user would have, the SDK's real providers, and
 * loopback STS, SSO portal, SSO OIDC and EC2 that check signatures and session tokens. EC2 accepts
 * only the temporary credentials STS or SSO issued, so a listing proves the source was used.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@RealToolsTest
class CredentialSourcesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROLE = "arn:aws:iam::123456789012:role/inventory";
  private static final String WEB_ROLE = "arn:aws:iam::123456789012:role/ci-inventory";
  private static final String TEST_USER = "arn:aws:iam::123456789012:user/test";

  @TempDir static Path tmp;
  private Ec2StandIn ec2;
  private StsStandIn sts;
  private SsoStandIn sso;
  private Path jar;
  private Path config;

  @BeforeAll
  void start() throws Exception {
    ec2 = Ec2StandIn.start();
    ec2.addAll(StandIns.smallFleet());
    ec2.addAll(referenceFleet());
    sts = StsStandIn.start(ec2.identities());
    sts.role(new StsStandIn.Role(ROLE, List.of(TEST_USER), null, List.of()));
    sts.role(
        new StsStandIn.Role(
            "arn:aws:iam::123456789012:role/partner", List.of(TEST_USER), "partner-7", List.of()));
    sts.role(new StsStandIn.Role(WEB_ROLE, List.of(), null, List.of("eyJhbGciOi.ci-token.sig")));
    sso = SsoStandIn.start(ec2.identities());
    jar = StandIns.testJar(tmp);
    config = tmp.resolve("gpugen-inventory.json");
    Files.copy(StandIns.SMALL_FLEET_CONFIG, config);
  }

  @AfterAll
  void stop() {
    ec2.close();
    sts.close();
    sso.close();
  }

  /** A user's environment: a home of its own, no metadata service, the loopback endpoints. */
  private Map<String, String> env(Path home, String... more) throws Exception {
    Files.createDirectories(home);
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toString());
    env.put("AWS_REGION", "us-east-1");
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    env.put("AWS_ENDPOINT_URL_STS", sts.endpoint().toString());
    env.put("AWS_ENDPOINT_URL_SSO", sso.endpoint().toString());
    env.put("AWS_ENDPOINT_URL_SSO_OIDC", sso.endpoint().toString());
    env.put("GPUGEN_EC2_ENDPOINT", ec2.endpoint().toString());
    env.put("GPUGEN_CACHE_TTL_SECONDS", "0");
    env.put("GPUGEN_API_CALL_TIMEOUT_SECONDS", "120");
    env.put("GPUGEN_MAX_ATTEMPTS", "2");
    for (int i = 0; i + 1 < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  private Run list(Map<String, String> env) throws Exception {
    return StandIns.exec(jar, tmp, env, "inventory", "--list", "--config", config.toString());
  }

  private static void assertListed(Run run) throws Exception {
    assertEquals(0, run.code(), run.err());
    JsonNode root = JSON.readTree(run.out());
    assertEquals(9, root.path("gpu_nodes").path("hosts").size(), run.out());
    assertTrue(root.path("_meta").path("hostvars").has("demo-a100-train-0"), run.out());
  }

  private static void write(Path file, String text) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  @Test
  void aProfileWithRoleArnAndSourceProfileAssumesTheRole() throws Exception {
    Path home = tmp.resolve("role-profile");
    write(
        home.resolve(".aws/credentials"),
        "[base]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = secret\n");
    write(
        home.resolve(".aws/config"),
        "[profile ops]\nrole_arn = " + ROLE + "\nsource_profile = base\nregion = us-east-1\n");
    // EC2 must not take the long-term key: only the role's credentials list the fleet.
    ec2.identities().add(new AwsIdentities.Identity("AKIDEXAMPLE", "secret", null, TEST_USER));
    Run run = list(env(home, "AWS_PROFILE", "ops"));
    assertListed(run);
    assertTrue(
        sts.requestLog().stream()
            .anyMatch(r -> "AssumeRole".equals(r.get("Action")) && ROLE.equals(r.get("RoleArn"))),
        sts.requestLog().toString());
  }

  @Test
  void webIdentityFromTheEnvironmentAssumesTheRoleWithTheTokenFile() throws Exception {
    Path home = tmp.resolve("web-identity");
    Path token = home.resolve("token");
    write(token, "eyJhbGciOi.ci-token.sig");
    Run run =
        list(
            env(
                home,
                "AWS_ROLE_ARN",
                WEB_ROLE,
                "AWS_WEB_IDENTITY_TOKEN_FILE",
                token.toString(),
                "AWS_ROLE_SESSION_NAME",
                "ci-run-42"));
    assertListed(run);
    assertTrue(
        sts.requestLog().stream()
            .anyMatch(
                r ->
                    "AssumeRoleWithWebIdentity".equals(r.get("Action"))
                        && "ci-run-42".equals(r.get("RoleSessionName"))),
        sts.requestLog().toString());
  }

  @Test
  void aRefusedWebIdentityTokenIsNamedWithWhatElseWasTried() throws Exception {
    Path home = tmp.resolve("web-identity-bad");
    Path token = home.resolve("token");
    write(token, "eyJhbGciOi.stolen.sig");
    Run run =
        list(env(home, "AWS_ROLE_ARN", WEB_ROLE, "AWS_WEB_IDENTITY_TOKEN_FILE", token.toString()));
    StandIns.assertFailure(
        run,
        3,
        "no AWS credentials found for EC2 DescribeInstances in us-east-1",
        "environment (AWS_ACCESS_KEY_ID is not set)",
        "web identity (",
        "InvalidIdentityToken",
        "profile default (",
        "instance role (AWS_EC2_METADATA_DISABLED=true)");
    assertFalse(run.err().contains("eyJ"), "the token never reaches a message");
  }

  @Test
  void assumeRoleArnWithExternalIdIsAssumedWithTheChainsCredentials() throws Exception {
    Run run =
        list(
            env(
                tmp.resolve("assume-setting"),
                "AWS_ACCESS_KEY_ID",
                "AKIDEXAMPLE",
                "AWS_SECRET_ACCESS_KEY",
                "secret",
                "GPUGEN_ASSUME_ROLE_ARN",
                "arn:aws:iam::123456789012:role/partner",
                "GPUGEN_ASSUME_ROLE_EXTERNAL_ID",
                "partner-7"));
    assertListed(run);
    assertTrue(
        sts.requestLog().stream()
            .anyMatch(
                r ->
                    "partner-7".equals(r.get("ExternalId"))
                        && "gpugen-inventory".equals(r.get("RoleSessionName"))),
        sts.requestLog().toString());
  }

  @Test
  void aRoleThatRefusesTheExternalIdFailsNamingTheSettingAndTheFix() throws Exception {
    Run run =
        list(
            env(
                tmp.resolve("assume-refused"),
                "AWS_ACCESS_KEY_ID",
                "AKIDEXAMPLE",
                "AWS_SECRET_ACCESS_KEY",
                "secret",
                "GPUGEN_ASSUME_ROLE_ARN",
                "arn:aws:iam::123456789012:role/partner",
                "GPUGEN_ASSUME_ROLE_EXTERNAL_ID",
                "wrong-id"));
    StandIns.assertFailure(
        run,
        3,
        "STS AssumeRole of arn:aws:iam::123456789012:role/partner (\"assumeRoleArn\") was refused:"
            + " AccessDenied",
        "trust policy");
    assertFalse(run.err().contains("wrong-id"), "the external id is not echoed");
  }

  @Test
  void anSsoSessionProfileUsesTheCachedTokenAtThePortal() throws Exception {
    Path home = tmp.resolve("sso");
    sso.accessToken("aoa-cached-token", "123456789012", "GpuOperators");
    ssoProfile(home, "aoa-cached-token", Instant.now().plus(4, ChronoUnit.HOURS), "unused");
    Run run = list(env(home, "AWS_PROFILE", "gpu-admin"));
    assertListed(run);
    assertTrue(
        sso.requestLog().contains("GET /federation/credentials"), sso.requestLog().toString());
  }

  @Test
  void anExpiredSsoTokenIsRefreshedThroughSsoOidc() throws Exception {
    Path home = tmp.resolve("sso-refresh");
    sso.accessToken("aoa-old-token", "123456789012", "GpuOperators");
    sso.refreshToken("client-1", "client-secret-1", "aor-refresh-1");
    ssoProfile(home, "aoa-expired", Instant.now().minus(1, ChronoUnit.HOURS), "aor-refresh-1");
    Run run = list(env(home, "AWS_PROFILE", "gpu-admin"));
    assertListed(run);
    assertTrue(sso.requestLog().contains("POST /token"), sso.requestLog().toString());
  }

  @Test
  void anSsoProfileWithoutAValidTokenSaysToLogIn() throws Exception {
    Path home = tmp.resolve("sso-expired");
    ssoProfile(home, "aoa-unknown", Instant.now().plus(4, ChronoUnit.HOURS), "unused");
    Run run = list(env(home, "AWS_PROFILE", "gpu-admin"));
    StandIns.assertFailure(
        run, 3, "no AWS credentials found", "profile gpu-admin (", "aws sso login");
  }

  @Test
  void withNoSourceAtAllTheMessageListsEachSourceTried() throws Exception {
    Run run = list(env(tmp.resolve("nothing")));
    StandIns.assertFailure(
        run,
        3,
        "no AWS credentials found for EC2 DescribeInstances in us-east-1; tried",
        "environment (AWS_ACCESS_KEY_ID is not set)",
        "web identity (AWS_WEB_IDENTITY_TOKEN_FILE is not set)",
        "profile default (",
        "container (AWS_CONTAINER_CREDENTIALS_(RELATIVE|FULL)_URI is not set)",
        "instance role (AWS_EC2_METADATA_DISABLED=true)",
        "Set AWS_PROFILE");
  }

  /** The reference spec's 16 nodes of pool h100, as Terraform launches them (drift's fleet). */
  private static List<Ec2StandIn.Instance> referenceFleet() {
    List<Ec2StandIn.Instance> fleet = new java.util.ArrayList<>();
    for (int i = 0; i < 16; i++) {
      fleet.add(
          Ec2StandIn.Instance.of(
                  Fleet.id(i),
                  "p5.48xlarge",
                  "us-east-1a",
                  Fleet.tags("h100-training", "prod", "h100", "h100-training-h100-" + i))
              .withSpot()
              .withPlacementGroup("h100-training-prod-h100"));
    }
    return fleet;
  }

  private Run drift(Map<String, String> env) throws Exception {
    Path spec = dev.gpugen.Golden.repo().resolve("examples/aws-h100/cluster.yaml");
    return StandIns.exec(jar, tmp, env, "drift", spec.toString());
  }

  @Test
  void driftAssumesTheRoleOfAProfileWithRoleArnAndSourceProfile() throws Exception {
    Path home = tmp.resolve("drift-role-profile");
    write(
        home.resolve(".aws/credentials"),
        "[base]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = secret\n");
    write(
        home.resolve(".aws/config"),
        "[profile ops]\nrole_arn = " + ROLE + "\nsource_profile = base\nregion = us-east-1\n");
    // EC2 must not take the long-term key: only the role's credentials list the fleet.
    ec2.identities().add(new AwsIdentities.Identity("AKIDEXAMPLE", "secret", null, TEST_USER));
    int assumed = assumeRoleCalls();
    Run run = drift(env(home, "AWS_PROFILE", "ops"));
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().contains("in sync"), run.out());
    assertEquals("", run.err());
    assertEquals(assumed + 1, assumeRoleCalls(), sts.requestLog().toString());
  }

  private int assumeRoleCalls() {
    return (int)
        sts.requestLog().stream()
            .filter(r -> "AssumeRole".equals(r.get("Action")) && ROLE.equals(r.get("RoleArn")))
            .count();
  }

  @Test
  void driftWithNoCredentialsNamesEachSourceTried() throws Exception {
    Run run = drift(env(tmp.resolve("drift-nothing")));
    assertEquals(3, run.code(), run.err());
    assertEquals("", run.out(), "nothing on stdout");
    List<String> lines = run.err().lines().toList();
    assertEquals(1, lines.size(), run.err());
    for (String fragment :
        List.of(
            "gpugen: drift: cannot ask EC2: no AWS credentials found for EC2 DescribeInstances in"
                + " us-east-1; tried",
            "environment (AWS_ACCESS_KEY_ID is not set)",
            "web identity (AWS_WEB_IDENTITY_TOKEN_FILE is not set)",
            "profile default (",
            "instance role (AWS_EC2_METADATA_DISABLED=true)",
            "Set AWS_PROFILE")) {
      assertTrue(run.err().contains(fragment), "want \"" + fragment + "\" in " + run.err());
    }
    assertFalse(run.err().contains("\tat "), "no stack trace");
  }

  /**
   * An IAM Identity Center profile with an sso-session and its cached token, as aws sso login
   * leaves them.
   */
  private static void ssoProfile(Path home, String accessToken, Instant expires, String refresh)
      throws Exception {
    write(
        home.resolve(".aws/config"),
        "[profile gpu-admin]\n"
            + "sso_session = corp\n"
            + "sso_account_id = 123456789012\n"
            + "sso_role_name = GpuOperators\n"
            + "region = us-east-1\n\n"
            + "[sso-session corp]\n"
            + "sso_start_url = https://corp.awsapps.com/start\n"
            + "sso_region = us-east-1\n"
            + "sso_registration_scopes = sso:account:access\n");
    // The SDK finds the token by the SHA-1 of the session name.
    String name =
        java.util.HexFormat.of()
            .formatHex(
                java.security.MessageDigest.getInstance("SHA-1")
                    .digest("corp".getBytes(StandardCharsets.UTF_8)));
    write(
        home.resolve(".aws/sso/cache/" + name + ".json"),
        JSON.writeValueAsString(
            Map.of(
                "startUrl",
                "https://corp.awsapps.com/start",
                "region",
                "us-east-1",
                "accessToken",
                accessToken,
                "expiresAt",
                expires.truncatedTo(ChronoUnit.SECONDS).toString(),
                "clientId",
                "client-1",
                "clientSecret",
                "client-secret-1",
                "registrationExpiresAt",
                Instant.now().plus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS).toString(),
                "refreshToken",
                refresh)));
  }
}
