package dev.gpugen.inventory;

import dev.gpugen.cli.ExitCodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsProfileRegionProvider;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.Ec2ClientBuilder;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * {@link InstanceSource} over EC2 DescribeInstances (AWS SDK v2): server-side tag and state
 * filters, {@code MaxResults} pages, standard retry mode and explicit timeouts.
 */
public final class Ec2InstanceSource implements InstanceSource {
  /** The largest page DescribeInstances allows. */
  static final int PAGE_SIZE = 1000;

  private final InventoryConfig config;
  private final AwsCredentialsProvider credentials;

  public Ec2InstanceSource(InventoryConfig config, AwsCredentialsProvider credentials) {
    this.config = config;
    this.credentials = credentials;
  }

  /** The source the CLI uses: the SDK's default credential chain. */
  public static Ec2InstanceSource withDefaultCredentials(InventoryConfig config) {
    return new Ec2InstanceSource(config, DefaultCredentialsProvider.builder().build());
  }

  /** The region of the AWS profile ({@code AWS_PROFILE} or {@code default}), if it names one. */
  public static Optional<String> profileRegion() {
    try {
      return Optional.of(new AwsProfileRegionProvider().getRegion().id());
    } catch (SdkClientException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The server-side filters: this cluster (and environment), these states. */
  static List<Filter> filters(InventoryConfig config) {
    List<Filter> filters = new ArrayList<>();
    filters.add(tagFilter(GpugenTags.MANAGED_BY, GpugenTags.MANAGED_BY_VALUE));
    filters.add(tagFilter(GpugenTags.CLUSTER, config.cluster()));
    config.environment().ifPresent(e -> filters.add(tagFilter(GpugenTags.ENVIRONMENT, e)));
    filters.add(Filter.builder().name("instance-state-name").values(config.states()).build());
    return filters;
  }

  private static Filter tagFilter(String key, String value) {
    return Filter.builder().name("tag:" + key).values(value).build();
  }

  @Override
  public List<HostFacts> describe(String region) throws InventoryException {
    DescribeInstancesRequest request =
        DescribeInstancesRequest.builder().filters(filters(config)).maxResults(PAGE_SIZE).build();
    List<HostFacts> hosts = new ArrayList<>();
    try (Ec2Client ec2 = client(region)) {
      Set<String> tokens = new HashSet<>();
      for (DescribeInstancesResponse page : ec2.describeInstancesPaginator(request)) {
        for (Reservation reservation : page.reservations()) {
          for (Instance instance : reservation.instances()) {
            if (instance.instanceId() == null || instance.instanceId().isEmpty()) {
              throw new InventoryException(
                  ExitCodes.ENVIRONMENT,
                  "EC2 DescribeInstances in "
                      + region
                      + " returned an instance without an id; is "
                      + Ec2Failures.endpointName(config, region)
                      + " really EC2?");
            }
            hosts.add(facts(region, instance));
          }
        }
        String next = page.nextToken();
        if (next != null && !next.isEmpty() && !tokens.add(next)) {
          throw new InventoryException(
              ExitCodes.ENVIRONMENT,
              "EC2 DescribeInstances in "
                  + region
                  + " returned the same NextToken twice; the endpoint ("
                  + Ec2Failures.endpointName(config, region)
                  + ") does not paginate correctly");
        }
      }
    } catch (SdkException e) {
      throw Ec2Failures.describe(e, config, region);
    }
    return hosts;
  }

  private Ec2Client client(String region) {
    ClientOverrideConfiguration override =
        ClientOverrideConfiguration.builder()
            .retryStrategy(
                AwsRetryStrategy.standardRetryStrategy().toBuilder()
                    .maxAttempts(config.maxAttempts())
                    .build())
            .apiCallTimeout(config.apiCallTimeout())
            .apiCallAttemptTimeout(config.attemptTimeout())
            .build();
    Ec2ClientBuilder builder =
        Ec2Client.builder()
            .region(Region.of(region))
            .credentialsProvider(credentials)
            .httpClient(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(connectTimeout())
                    .socketTimeout(config.attemptTimeout())
                    .build())
            .overrideConfiguration(override);
    config.endpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }

  private Duration connectTimeout() {
    Duration five = Duration.ofSeconds(5);
    return config.attemptTimeout().compareTo(five) < 0 ? config.attemptTimeout() : five;
  }

  static HostFacts facts(String region, Instance instance) {
    Map<String, String> tags =
        instance.tags().stream()
            .filter(t -> t.key() != null)
            .collect(
                Collectors.toMap(Tag::key, t -> t.value() == null ? "" : t.value(), (a, b) -> a));
    return new HostFacts(
        instance.instanceId(),
        region,
        nonEmpty(instance.instanceTypeAsString()).orElse("unknown"),
        Optional.ofNullable(instance.placement()).flatMap(p -> nonEmpty(p.availabilityZone())),
        Optional.ofNullable(instance.state())
            .flatMap(s -> nonEmpty(s.nameAsString()))
            .orElse("unknown"),
        nonEmpty(instance.instanceLifecycleAsString()),
        nonEmpty(instance.privateIpAddress()),
        nonEmpty(instance.publicIpAddress()),
        nonEmpty(instance.privateDnsName()),
        Optional.ofNullable(instance.launchTime()),
        tags);
  }

  private static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }
}
