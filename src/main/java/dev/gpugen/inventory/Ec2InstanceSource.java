package dev.gpugen.inventory;

import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.Failure;
import dev.gpugen.inventory.Ec2Query.Filter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.regions.providers.AwsProfileRegionProvider;

/**
 * {@link InstanceSource} over EC2 DescribeInstances ({@link Ec2Query}: the AWS SDK's credentials,
 * signer, retry strategy and HTTP client): server-side tag and state filters, {@code MaxResults}
 * pages, standard retry mode and explicit timeouts.
 */
public final class Ec2InstanceSource implements InstanceSource {
  /** The largest page DescribeInstances allows. */
  static final int PAGE_SIZE = 1000;

  /** Zones paged at once per region: well inside EC2's Describe* token bucket. */
  static final int MAX_PARALLEL_ZONES = 4;

  /**
   * Pages followed in one NextToken chain: a million instances at most. A chain that goes on is an
   * endpoint that paginates wrongly; the run ends with an error instead of looping.
   */
  static final int MAX_PAGES = 1000;

  /**
   * The largest response body read: a 1,000-instance page of real EC2 is a few megabytes. A body
   * that goes on beyond this is cut off (it would fill the heap) and the run fails.
   */
  static final long MAX_RESPONSE_BYTES = 32L << 20;

  private final InventoryConfig config;
  private final AwsCredentialsProvider credentials;
  private final int maxPages;

  public Ec2InstanceSource(InventoryConfig config, AwsCredentialsProvider credentials) {
    this(config, credentials, MAX_PAGES);
  }

  /** With another page limit than {@link #MAX_PAGES}: tests prove the limit with a small one. */
  Ec2InstanceSource(InventoryConfig config, AwsCredentialsProvider credentials, int maxPages) {
    this.config = config;
    this.credentials = credentials;
    this.maxPages = maxPages;
  }

  /**
   * The source the CLI and {@code gpugen drift} use: the SDK's default credential chain ({@link
   * CredentialChain}), and the role of {@code assumeRoleArn} assumed with it if set.
   */
  public static Ec2InstanceSource withDefaultCredentials(InventoryConfig config) {
    return new Ec2InstanceSource(
        config,
        CredentialChain.forSettings(
            config,
            System.getenv(),
            config.regions().isEmpty() ? "us-east-1" : config.regions().get(0)));
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
    filters.add(new Filter("instance-state-name", config.states()));
    config.filters().forEach((name, values) -> filters.add(new Filter(name, values)));
    return filters;
  }

  private static Filter tagFilter(String key, String value) {
    return Filter.of("tag:" + key, value);
  }

  /**
   * One page first. A fleet that fits in it costs one call; a larger one is split by availability
   * zone (every instance is in exactly one, so the union is complete) and the zones are paged in
   * parallel, which is what makes thousands of instances fast: EC2 answers each page in a second or
   * more, and a single NextToken chain cannot be parallelised. Without permission to list the zones
   * (ec2:DescribeAvailabilityZones) it goes on with the one chain.
   */
  @Override
  public List<HostFacts> describe(String region) throws Failure {
    Ec2Query query;
    try {
      query = new Ec2Query(config, credentials, region, MAX_RESPONSE_BYTES);
    } catch (SdkException e) {
      throw Ec2Failures.describe(e, config, region);
    } catch (RuntimeException e) {
      // The SDK's settings (AWS_MAX_ATTEMPTS, AWS_ENDPOINT_URL_EC2, ~/.aws/config ...) are read
      // here, as when its client is built.
      throw new EnvironmentFailure(
          "cannot set up the AWS SDK for "
              + region
              + ": "
              + Ec2Failures.clip(e.getClass().getSimpleName() + ": " + e.getMessage())
              + "; check the AWS_* variables and ~/.aws/config",
          e);
    }
    try (Ec2Query ec2 = query) {
      List<Filter> filters = filters(config);
      // The first page's instances are read only if it is the only page: a larger fleet is read
      // again by zone, and parsing 1,000 instances only to drop them would cost a page's CPU.
      InstancePages.Page first = ec2.describeInstances(filters, PAGE_SIZE, null, false);
      if (first.nextToken() != null) {
        Optional<List<String>> zones = zones(ec2);
        if (zones.isPresent() && zones.get().size() > 1) {
          first.release();
          return byZone(ec2, region, zones.get());
        }
      }
      ec2.instancesOf(first);
      return chain(ec2, region, filters, first);
    } catch (SdkException | CredentialChain.MissingCredentialsException e) {
      throw Ec2Failures.describe(e, config, region);
    }
  }

  /** The region's zone names, or empty if they cannot be listed. */
  private static Optional<List<String>> zones(Ec2Query ec2) {
    try {
      return Optional.of(
          ec2.availabilityZones().stream()
              .filter(z -> z != null && !z.isEmpty())
              .distinct()
              .sorted()
              .toList());
    } catch (SdkException e) {
      // Listing zones only speeds things up; DescribeInstances decides success or failure.
      return Optional.empty();
    }
  }

  private List<HostFacts> byZone(Ec2Query ec2, String region, List<String> zones) throws Failure {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(zones.size(), MAX_PARALLEL_ZONES),
            r -> {
              Thread t = new Thread(r, "gpugen-ec2-" + region);
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<List<HostFacts>>> futures = new ArrayList<>();
      for (String zone : zones) {
        futures.add(
            pool.submit(
                () -> {
                  List<Filter> inZone = new ArrayList<>(filters(config));
                  inZone.add(Filter.of("availability-zone", zone));
                  return chain(
                      ec2, region, inZone, ec2.describeInstances(inZone, PAGE_SIZE, null, true));
                }));
      }
      List<HostFacts> all = new ArrayList<>();
      Set<String> ids = new HashSet<>();
      for (Future<List<HostFacts>> future : futures) {
        for (HostFacts host : future.get()) {
          // Every instance is in exactly one zone; one listed twice is an endpoint that lies.
          if (!ids.add(host.instanceId())) {
            throw new EnvironmentFailure(
                "EC2 DescribeInstances in "
                    + region
                    + " listed instance "
                    + InventoryBuilder.show(host.instanceId())
                    + " in two availability zones; is "
                    + Ec2Failures.endpointName(config, region)
                    + " really EC2?");
          }
          all.add(host);
        }
      }
      return all;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Failure failure) {
        throw failure;
      }
      if (cause instanceof RuntimeException failure) {
        throw failure;
      }
      throw new IllegalStateException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EnvironmentFailure("interrupted while asking EC2", e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** {@code first} and the pages after it, at most {@code maxPages}. */
  private List<HostFacts> chain(
      Ec2Query ec2, String region, List<Filter> filters, InstancePages.Page first) throws Failure {
    List<HostFacts> hosts = new ArrayList<>();
    Set<String> tokens = new HashSet<>();
    InstancePages.Page page = first;
    collect(region, page, hosts, tokens);
    for (int n = 1; page.nextToken() != null; n++) {
      if (n >= maxPages) {
        throw new EnvironmentFailure(
            "EC2 DescribeInstances in "
                + region
                + " was still returning a NextToken after "
                + maxPages
                + " pages; "
                + Ec2Failures.endpointName(config, region)
                + " does not paginate correctly");
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new EnvironmentFailure("interrupted while asking EC2");
      }
      page = ec2.describeInstances(filters, PAGE_SIZE, page.nextToken(), true);
      collect(region, page, hosts, tokens);
    }
    return hosts;
  }

  private void collect(
      String region, InstancePages.Page page, List<HostFacts> hosts, Set<String> tokens)
      throws Failure {
    for (HostFacts host : page.hosts()) {
      if (host.instanceId().isEmpty()) {
        throw new EnvironmentFailure(
            "EC2 DescribeInstances in "
                + region
                + " returned an instance without an id; is "
                + Ec2Failures.endpointName(config, region)
                + " really EC2?");
      }
      hosts.add(host);
    }
    String next = page.nextToken();
    if (next != null && !tokens.add(next)) {
      throw new EnvironmentFailure(
          "EC2 DescribeInstances in "
              + region
              + " returned the same NextToken twice; the endpoint ("
              + Ec2Failures.endpointName(config, region)
              + ") does not paginate correctly");
    }
  }
}
