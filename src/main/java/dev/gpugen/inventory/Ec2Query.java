package dev.gpugen.inventory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.xml.stream.XMLStreamException;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.endpoint.AwsClientEndpointProvider;
import software.amazon.awssdk.awscore.endpoint.DualstackEnabledProvider;
import software.amazon.awssdk.awscore.endpoint.FipsEnabledProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.retry.RetryUtils;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.EndpointTag;
import software.amazon.awssdk.regions.PartitionEndpointKey;
import software.amazon.awssdk.regions.PartitionMetadata;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.RetryToken;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;
import software.amazon.awssdk.utils.DateUtils;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * The two EC2 Query API calls the inventory makes (DescribeInstances, DescribeAvailabilityZones),
 * put together from the AWS SDK's own parts: its credentials, endpoint resolution ({@code
 * AWS_ENDPOINT_URL_EC2}, the profile's {@code endpoint_url}, FIPS and dual-stack settings), SigV4
 * signer, standard retry strategy and url-connection HTTP client. What it leaves out is the
 * generated EC2 client: building it loads and verifies about 1,000 classes (one per EC2 operation)
 * and its request pipeline, which cost more than half a second of CPU on every cold run, and its
 * response model is never used (the pages are streamed by {@link InstancePages}).
 *
 * <p>Failures are the SDK's exception types, as the generated client throws them ({@link
 * AwsServiceException} with EC2's error code, {@link ApiCallTimeoutException}, {@link
 * SdkClientException} around an I/O error), with the number of attempts, so that {@link
 * Ec2Failures} and the retry strategy judge them as before. The protocol: form-encoded POST of
 * {@code Action}, {@code Version=2016-11-15} and the parameters, errors as {@code
 * <Response><Errors><Error><Code>}
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/Query-Requests.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html).
 */
final class Ec2Query implements AutoCloseable {
  static final String API_VERSION = "2016-11-15";
  private static final String SERVICE = "Ec2";

  /** A server-side filter: EC2 ORs the values of one filter and ANDs the filters. */
  record Filter(String name, List<String> values) {
    Filter {
      values = List.copyOf(values);
    }

    static Filter of(String name, String value) {
      return new Filter(name, List.of(value));
    }
  }

  private final String region;
  private final URI endpoint;
  private final AwsCredentialsProvider credentials;
  private final SdkHttpClient http;
  private final RetryStrategy retries;
  private final Duration callTimeout;
  private final Duration attemptTimeout;
  private final long maxResponseBytes;
  private final ScheduledExecutorService timer;
  private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

  /** Seconds to add to the local clock, learned from EC2's Date header after a clock-skew error. */
  private final AtomicLong skewSeconds = new AtomicLong();

  /**
   * Reads the settings the SDK reads while a client is built ({@code AWS_MAX_ATTEMPTS}, the
   * endpoint variables and profile): a bad one fails here, before any request.
   */
  Ec2Query(
      InventoryConfig config,
      AwsCredentialsProvider credentials,
      String region,
      long maxResponseBytes) {
    this.region = region;
    this.credentials = credentials;
    this.callTimeout = config.apiCallTimeout();
    this.attemptTimeout = config.attemptTimeout();
    this.maxResponseBytes = maxResponseBytes;
    this.retries =
        AwsRetryStrategy.standardRetryStrategy().toBuilder()
            .maxAttempts(config.maxAttempts())
            .build();
    this.endpoint = endpoint(config, region);
    Duration five = Duration.ofSeconds(5);
    this.http =
        UrlConnectionHttpClient.builder()
            .connectionTimeout(attemptTimeout.compareTo(five) < 0 ? attemptTimeout : five)
            .socketTimeout(attemptTimeout)
            .tlsTrustManagersProvider(LazyTrust::managers)
            .build();
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "gpugen-ec2-timeout");
              thread.setDaemon(true);
              return thread;
            });
    t.setRemoveOnCancelPolicy(true);
    this.timer = t;
  }

  /**
   * The endpoint as the SDK's EC2 client resolves it: gpugen's {@code endpoint} setting (which
   * already took {@code AWS_ENDPOINT_URL_EC2} and {@code AWS_ENDPOINT_URL}), else the SDK's other
   * overrides ({@code aws.endpointUrlEc2}, the profile's {@code ec2.endpoint_url}, {@code
   * endpoint_url} or services section), else EC2's endpoint rules for the region's partition with
   * the FIPS and dual-stack settings ({@code AWS_USE_FIPS_ENDPOINT}, {@code use_fips_endpoint},
   * ...): botocore/data/ec2/2016-11-15/endpoint-rule-set-1.json, the rule set the SDK's EC2 client
   * is generated from.
   */
  static URI endpoint(InventoryConfig config, String region) {
    Optional<URI> override =
        config
            .endpoint()
            .or(
                () ->
                    AwsClientEndpointProvider.builder()
                        .serviceEndpointOverrideEnvironmentVariable("AWS_ENDPOINT_URL_EC2")
                        .serviceEndpointOverrideSystemProperty("aws.endpointUrlEc2")
                        .serviceProfileProperty("ec2")
                        .resolveFromOverrides());
    boolean fips = FipsEnabledProvider.builder().build().isFipsEnabled().orElse(false);
    boolean dualStack =
        DualstackEnabledProvider.builder().build().isDualstackEnabled().orElse(false);
    if (override.isPresent()) {
      if (fips || dualStack) {
        throw SdkClientException.create(
            "Invalid Configuration: "
                + (fips ? "FIPS" : "Dualstack")
                + " and custom endpoint are not supported");
      }
      return override.get();
    }
    PartitionMetadata partition = PartitionMetadata.of(Region.of(region));
    String dualStackSuffix =
        partition.dnsSuffix(PartitionEndpointKey.builder().tags(EndpointTag.DUALSTACK).build());
    String host;
    if (fips && dualStack) {
      host = "ec2-fips." + region + "." + dualStackSuffix;
    } else if (fips) {
      host =
          partition.id().equals("aws-us-gov")
              ? "ec2." + region + ".amazonaws.com"
              : "ec2-fips." + region + "." + partition.dnsSuffix();
    } else if (dualStack) {
      host = "ec2." + region + "." + dualStackSuffix;
    } else {
      host = "ec2." + region + "." + partition.dnsSuffix();
    }
    return URI.create("https://" + host);
  }

  /**
   * One DescribeInstances page: its instances, or with {@code instances} false only its NextToken
   * (the instances are checked as XML and passed over; {@link #instancesOf} reads them later).
   */
  InstancePages.Page describeInstances(
      List<Filter> filters, int maxResults, String nextToken, boolean instances) {
    List<String[]> params = new ArrayList<>();
    for (int i = 0; i < filters.size(); i++) {
      Filter f = filters.get(i);
      params.add(new String[] {"Filter." + (i + 1) + ".Name", f.name()});
      for (int j = 0; j < f.values().size(); j++) {
        params.add(new String[] {"Filter." + (i + 1) + ".Value." + (j + 1), f.values().get(j)});
      }
    }
    params.add(new String[] {"MaxResults", Integer.toString(maxResults)});
    if (nextToken != null) {
      params.add(new String[] {"NextToken", nextToken});
    }
    Body body = call("DescribeInstances", params);
    InstancePages.Page page = new InstancePages.Page(region, body.bytes(), body.length());
    parse(() -> InstancePages.read(body.bytes(), body.length(), page, instances));
    return page;
  }

  /** The instances of a page first read without them. */
  void instancesOf(InstancePages.Page page) {
    parse(() -> page.readInstances());
  }

  /** The names of every availability zone of the region (DescribeAvailabilityZones). */
  List<String> availabilityZones() {
    List<String[]> params = new ArrayList<>();
    params.add(new String[] {"AllAvailabilityZones", "true"});
    Body body = call("DescribeAvailabilityZones", params);
    List<String> zones = new ArrayList<>();
    parse(() -> zones.addAll(zoneNames(body.bytes(), body.length())));
    return zones;
  }

  /** A successful response's body. */
  private record Body(byte[] bytes, int length) {}

  @FunctionalInterface
  private interface Parse {
    void run() throws XMLStreamException;
  }

  /** Runs {@code parse}; XML that is not EC2's fails as the SDK's client failed on it. */
  private static void parse(Parse parse) {
    try {
      parse.run();
    } catch (XMLStreamException | RuntimeException e) {
      throw SdkClientException.create(
          "the response is not EC2 XML: " + Ec2Failures.clip(e.getMessage()), e);
    }
  }

  /**
   * One call: signed, sent, retried by the strategy, each attempt bounded by the attempt timeout
   * and all of them by the call timeout. Throws the SDK's exception of the last attempt.
   */
  private Body call(String action, List<String[]> params) {
    StringBuilder form = new StringBuilder("Action=").append(action);
    form.append("&Version=").append(API_VERSION);
    for (String[] p : params) {
      form.append('&').append(SdkHttpUtils.urlEncode(p[0]));
      form.append('=').append(SdkHttpUtils.urlEncode(p[1]));
    }
    byte[] body = form.toString().getBytes(StandardCharsets.UTF_8);
    // Outside the retry loop, as the SDK resolves the identity: a missing credential is not
    // something another attempt can fix.
    AwsCredentials identity = credentials.resolveCredentials();
    long deadline = System.nanoTime() + callTimeout.toNanos();
    RetryToken token =
        retries.acquireInitialToken(AcquireInitialTokenRequest.create("GLOBAL")).token();
    for (int attempt = 1; ; attempt++) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw withAttempts(ApiCallTimeoutException.create(callTimeout.toMillis()), attempt - 1);
      }
      SdkException failure;
      try {
        Body result = attempt(body, identity, left);
        retries.recordSuccess(RecordSuccessRequest.create(token));
        return result;
      } catch (SdkException e) {
        failure = e;
      }
      adjustClock(failure);
      Duration delay;
      try {
        RefreshRetryTokenResponse refreshed =
            retries.refreshRetryToken(
                RefreshRetryTokenRequest.builder().token(token).failure(failure).build());
        token = refreshed.token();
        delay = refreshed.delay();
      } catch (TokenAcquisitionFailedException e) {
        throw withAttempts(failure, attempt);
      }
      if (System.nanoTime() + delay.toNanos() >= deadline) {
        throw withAttempts(ApiCallTimeoutException.create(callTimeout.toMillis()), attempt);
      }
      try {
        Thread.sleep(delay.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw withAttempts(
            SdkClientException.create("interrupted while waiting to retry " + action, e), attempt);
      }
    }
  }

  /** One attempt, aborted when {@code leftNanos} or the attempt timeout runs out. */
  private Body attempt(byte[] body, AwsCredentials identity, long leftNanos) {
    boolean callBound = leftNanos < attemptTimeout.toNanos();
    long bound = Math.min(leftNanos, attemptTimeout.toNanos());
    SdkHttpFullRequest unsigned =
        SdkHttpFullRequest.builder()
            .method(SdkHttpMethod.POST)
            .uri(endpoint)
            .encodedPath(
                endpoint.getRawPath() == null || endpoint.getRawPath().isEmpty()
                    ? "/"
                    : endpoint.getRawPath())
            .putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
            .putHeader("Content-Length", Integer.toString(body.length))
            .putHeader("User-Agent", "gpugen")
            .build();
    Clock clock =
        Clock.offset(Clock.systemUTC(), Duration.ofSeconds(skewSeconds.get()))
            .withZone(ZoneOffset.UTC);
    SignedRequest signed =
        signer.sign(
            r ->
                r.identity(identity)
                    .request(unsigned)
                    .payload(() -> new ByteArrayInputStream(body))
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "ec2")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                    .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, clock));
    ExecutableHttpRequest exchange =
        http.prepareRequest(
            HttpExecuteRequest.builder()
                .request(signed.request())
                .contentStreamProvider(() -> new ByteArrayInputStream(body))
                .build());
    AtomicInteger timedOut = new AtomicInteger();
    ScheduledFuture<?> alarm =
        timer.schedule(
            () -> {
              timedOut.set(1);
              exchange.abort();
            },
            bound,
            TimeUnit.NANOSECONDS);
    try {
      HttpExecuteResponse response = exchange.call();
      SdkHttpResponse status = response.httpResponse();
      Optional<AbortableInputStream> stream = response.responseBody();
      try (InputStream in =
          ResponseLimit.bounded(
              stream.<InputStream>map(s -> s).orElseGet(InputStream::nullInputStream),
              maxResponseBytes)) {
        // The whole body within the attempt: a trickling endpoint is bounded like a silent one.
        byte[] bytes = readAll(in, status);
        if (status.isSuccessful()) {
          return new Body(bytes, bytes.length);
        }
        throw serviceError(status, bytes);
      }
    } catch (IOException e) {
      if (timedOut.get() != 0) {
        throw callBound
            ? ApiCallTimeoutException.create(callTimeout.toMillis())
            : ApiCallAttemptTimeoutException.create(attemptTimeout.toMillis());
      }
      throw SdkClientException.create("Unable to execute HTTP request: " + e.getMessage(), e);
    } finally {
      alarm.cancel(false);
    }
  }

  /** The body, sized by Content-Length when the endpoint sends one (within the bound). */
  private byte[] readAll(InputStream in, SdkHttpResponse status) throws IOException {
    long declared =
        status
            .firstMatchingHeader("Content-Length")
            .map(
                v -> {
                  try {
                    return Long.parseLong(v.trim());
                  } catch (NumberFormatException e) {
                    return -1L;
                  }
                })
            .orElse(-1L);
    byte[] buf = new byte[(int) Math.max(8192, Math.min(declared + 1, maxResponseBytes + 1))];
    int n = 0;
    while (true) {
      if (n == buf.length) {
        buf = java.util.Arrays.copyOf(buf, (int) Math.min(2L * buf.length, maxResponseBytes + 1));
      }
      int r = in.read(buf, n, buf.length - n);
      if (r < 0) {
        return n == buf.length ? buf : java.util.Arrays.copyOf(buf, n);
      }
      n += r;
    }
  }

  /** EC2's error document as the SDK reports it; a body that is not one leaves the code empty. */
  private static AwsServiceException serviceError(SdkHttpResponse status, byte[] body) {
    String[] error = {null, null, null};
    try {
      errorFields(new Ec2Xml(body, body.length), error);
    } catch (XMLStreamException | RuntimeException e) {
      // No usable error document (an empty 401, a proxy's HTML page): the status says enough.
    }
    String requestId =
        error[2] != null ? error[2] : status.firstMatchingHeader("x-amzn-RequestId").orElse(null);
    return AwsServiceException.builder()
        .statusCode(status.statusCode())
        .requestId(requestId)
        .awsErrorDetails(
            AwsErrorDetails.builder()
                .errorCode(error[0])
                .errorMessage(error[1])
                .serviceName(SERVICE)
                .sdkHttpResponse(status)
                .build())
        .build();
  }

  /** Code, message and request id of {@code <Response><Errors><Error>...<RequestID>}. */
  private static void errorFields(Ec2Xml xml, String[] error) throws XMLStreamException {
    if (!xml.nextTag() || !xml.is("Response")) {
      return;
    }
    while (xml.nextTag()) {
      if (xml.is("Errors")) {
        while (xml.nextTag()) {
          if (!xml.is("Error")) {
            xml.skip();
            continue;
          }
          while (xml.nextTag()) {
            if (xml.is("Code") && error[0] == null) {
              error[0] = xml.text();
            } else if (xml.is("Message") && error[1] == null) {
              error[1] = xml.text();
            } else {
              xml.skip();
            }
          }
        }
      } else if (xml.is("RequestID") || xml.is("RequestId")) {
        error[2] = xml.text();
      } else {
        xml.skip();
      }
    }
  }

  /**
   * After a clock-skew error, sign the next attempts with EC2's time from its Date header, as the
   * SDK's client does.
   */
  private void adjustClock(SdkException failure) {
    if (!(failure instanceof AwsServiceException service)
        || !RetryUtils.isClockSkewException(failure)) {
      return;
    }
    Optional<String> date =
        service.awsErrorDetails() == null || service.awsErrorDetails().sdkHttpResponse() == null
            ? Optional.empty()
            : service.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("Date");
    if (date.isEmpty()) {
      return;
    }
    try {
      Instant server = DateUtils.parseRfc822Date(date.get());
      long skew = server.getEpochSecond() - Instant.now().getEpochSecond();
      if (Math.abs(skew) >= 240) {
        skewSeconds.set(skew);
      }
    } catch (RuntimeException e) {
      // An unreadable Date header: no adjustment.
    }
  }

  private static SdkException withAttempts(SdkException e, int attempts) {
    return e.toBuilder().numAttempts(attempts).build();
  }

  /** availabilityZoneInfo/item/zoneName: only a zone's own name, not its parent zone's. */
  private static List<String> zoneNames(byte[] body, int length) throws XMLStreamException {
    Ec2Xml xml = new Ec2Xml(body, length);
    if (!xml.nextTag() || !xml.is("DescribeAvailabilityZonesResponse")) {
      throw new XMLStreamException(
          "the document is <" + Ec2Failures.clip(xml.name()) + ">, not a zone list");
    }
    List<String> zones = new ArrayList<>();
    while (xml.nextTag()) {
      if (!xml.is("availabilityZoneInfo")) {
        xml.skip();
        continue;
      }
      while (xml.nextTag()) {
        if (!xml.is("item")) {
          xml.skip();
          continue;
        }
        while (xml.nextTag()) {
          if (xml.is("zoneName")) {
            zones.add(xml.text());
          } else {
            xml.skip();
          }
        }
      }
    }
    return zones;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    http.close();
  }
}
