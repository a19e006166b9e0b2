package dev.gpugen.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.InstanceProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.SystemPropertyCredentialsProvider;
import software.amazon.awssdk.auth.credentials.WebIdentityTokenFileCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * The AWS SDK's default credential chain, source by source in the SDK's order (Java system
 * properties, environment variables, web identity, the profile, the container endpoint, the
 * instance role;
 * https://docs.aws.amazon.com/sdk-for-java/latest/developer-guide/credentials-chain.html), so that
 * when none works the message says what each source lacked. A profile with {@code role_arn}/{@code
 * source_profile}, {@code credential_source}, {@code credential_process}, or IAM Identity Center
 * ({@code sso_session}, {@code sso_account_id}, ...) is resolved by the SDK's own profile provider
 * with the sts, sso and ssooidc modules on the class path.
 *
 * <p>The first source that works is kept for the run (each refreshes its own credentials).
 */
final class CredentialChain implements AwsCredentialsProvider {
  /** Every source failed; the message lists each with its reason. */
  static final class MissingCredentialsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MissingCredentialsException(String message) {
      super(message);
    }
  }

  private record Source(
      String label, Supplier<Optional<String>> skip, Supplier<AwsCredentialsProvider> provider) {}

  private final List<Source> sources;
  private volatile AwsCredentialsProvider chosen;

  private CredentialChain(List<Source> sources) {
    this.sources = List.copyOf(sources);
  }

  /** The default chain as the environment {@code env} configures it. */
  static CredentialChain standard(Map<String, String> env) {
    String profile =
        Optional.ofNullable(env.get("AWS_PROFILE"))
            .or(() -> Optional.ofNullable(env.get("AWS_DEFAULT_PROFILE")))
            .filter(p -> !p.isBlank())
            .orElse("default");
    return new CredentialChain(
        List.of(
            new Source(
                "Java system properties",
                () ->
                    System.getProperty("aws.accessKeyId") == null
                        ? Optional.of("aws.accessKeyId is not set")
                        : Optional.empty(),
                SystemPropertyCredentialsProvider::create),
            new Source(
                "environment",
                () -> unset(env, "AWS_ACCESS_KEY_ID"),
                EnvironmentVariableCredentialsProvider::create),
            new Source(
                "web identity",
                () ->
                    unset(env, "AWS_WEB_IDENTITY_TOKEN_FILE").or(() -> unset(env, "AWS_ROLE_ARN")),
                WebIdentityTokenFileCredentialsProvider::create),
            new Source(
                "profile " + profile,
                Optional::empty,
                () -> ProfileCredentialsProvider.builder().profileName(profile).build()),
            new Source(
                "container",
                () ->
                    unset(env, "AWS_CONTAINER_CREDENTIALS_FULL_URI").isPresent()
                            && unset(env, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI").isPresent()
                        ? Optional.of("AWS_CONTAINER_CREDENTIALS_(RELATIVE|FULL)_URI is not set")
                        : Optional.empty(),
                () -> ContainerCredentialsProvider.builder().build()),
            new Source(
                "instance role",
                () ->
                    "true".equalsIgnoreCase(env.getOrDefault("AWS_EC2_METADATA_DISABLED", ""))
                        ? Optional.of("AWS_EC2_METADATA_DISABLED=true")
                        : Optional.empty(),
                () -> InstanceProfileCredentialsProvider.builder().build())));
  }

  /**
   * The credentials EC2 is asked with: the default chain's, or the role {@code assumeRole} names,
   * assumed with them (STS in {@code region}; {@code AWS_ENDPOINT_URL_STS} is honoured).
   */
  static AwsCredentialsProvider forSettings(
      InventoryConfig config, Map<String, String> env, String region) {
    CredentialChain chain = standard(env);
    if (config.assumeRole().isEmpty()) {
      return chain;
    }
    AssumeRole role = config.assumeRole().get();
    StsClient sts =
        StsClient.builder()
            .region(Region.of(region))
            .credentialsProvider(chain)
            .httpClient(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(java.time.Duration.ofSeconds(5))
                    .socketTimeout(config.attemptTimeout())
                    .build())
            .build();
    return StsAssumeRoleCredentialsProvider.builder()
        .stsClient(sts)
        .refreshRequest(
            r -> {
              r.roleArn(role.roleArn()).roleSessionName(role.sessionName());
              role.externalId().ifPresent(r::externalId);
            })
        .build();
  }

  private static Optional<String> unset(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? Optional.of(name + " is not set") : Optional.empty();
  }

  @Override
  public AwsCredentials resolveCredentials() {
    AwsCredentialsProvider provider = chosen;
    if (provider != null) {
      return provider.resolveCredentials();
    }
    synchronized (this) {
      if (chosen != null) {
        return chosen.resolveCredentials();
      }
      List<String> tried = new ArrayList<>();
      for (Source source : sources) {
        Optional<String> skip = source.skip().get();
        if (skip.isPresent()) {
          tried.add(source.label() + " (" + skip.get() + ")");
          continue;
        }
        try {
          AwsCredentialsProvider candidate = source.provider().get();
          AwsCredentials credentials = candidate.resolveCredentials();
          chosen = candidate;
          return credentials;
        } catch (RuntimeException e) {
          tried.add(source.label() + " (" + reason(e) + ")");
        }
      }
      throw new MissingCredentialsException("tried " + String.join("; ", tried));
    }
  }

  /** The most specific message of a source's failure, one line, bounded. */
  private static String reason(Throwable e) {
    Throwable deepest = e;
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        deepest = t;
        if (t instanceof AwsServiceException service && service.awsErrorDetails() != null) {
          AwsErrorDetails details = service.awsErrorDetails();
          return Ec2Failures.clip(
              details.serviceName()
                  + " "
                  + details.errorCode()
                  + (details.errorMessage() == null ? "" : ": " + details.errorMessage()));
        }
      }
    }
    return Ec2Failures.clip(
        deepest.getMessage() == null ? deepest.getClass().getSimpleName() : deepest.getMessage());
  }
}
