package dev.gpugen.inventory;

import dev.gpugen.failure.EnvironmentFailure;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Turns an SDK failure into one line that names the cause and the setting to fix. Messages quote
 * EC2's error code and a bounded part of its message, never credentials.
 */
final class Ec2Failures {
  private static final Set<String> CREDENTIAL_CODES =
      Set.of(
          "AuthFailure",
          "InvalidClientTokenId",
          "SignatureDoesNotMatch",
          "ExpiredToken",
          "RequestExpired",
          "UnrecognizedClientException",
          "IncompleteSignature",
          "MissingAuthenticationToken",
          "OptInRequired");
  private static final Set<String> THROTTLING_CODES =
      Set.of(
          "RequestLimitExceeded", "Throttling", "ThrottlingException", "TooManyRequestsException");
  private static final int MAX_MESSAGE = 200;

  private Ec2Failures() {}

  /** How the endpoint is named in messages. */
  static String endpointName(InventoryConfig config, String region) {
    return config
        .endpoint()
        .map(uri -> "endpoint " + uri + " (" + config.endpointSetting() + ")")
        .orElse("the EC2 endpoint of " + region);
  }

  /** The setting to check when the endpoint is wrong. */
  private static String endpointSetting(InventoryConfig config) {
    return config.endpoint().isPresent()
        ? config.endpointSetting()
        : "\"endpoint\"/GPUGEN_EC2_ENDPOINT or AWS_ENDPOINT_URL_EC2";
  }

  static EnvironmentFailure describe(RuntimeException e, InventoryConfig config, String region) {
    String where = "EC2 DescribeInstances in " + region;
    String endpoint = endpointName(config, region);
    String attempts = attempts(e);
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof CredentialChain.MissingCredentialsException missing) {
        return fail(
            "no AWS credentials found for "
                + (config.assumeRole().isPresent() ? "STS AssumeRole before " : "")
                + where
                + "; "
                + missing.getMessage()
                + ". Set AWS_PROFILE (run `aws sso login` for an SSO profile), or"
                + " AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, or run where a role is available",
            e);
      }
      if (t instanceof AwsServiceException sts
          && sts.awsErrorDetails() != null
          && "sts".equalsIgnoreCase(sts.awsErrorDetails().serviceName())) {
        AwsErrorDetails details = sts.awsErrorDetails();
        String code =
            details.errorCode() == null ? "HTTP " + sts.statusCode() : details.errorCode();
        String message = clip(details.errorMessage());
        return fail(
            "STS AssumeRole of "
                + config.assumeRole().map(AssumeRole::roleArn).orElse("the role")
                + " (\"assumeRoleArn\") was refused: "
                + code
                + (message.isEmpty() ? "" : " (" + message + ")")
                + "; the identity of the default chain needs sts:AssumeRole on it, and the role's"
                + " trust policy must allow that identity (and ask for the external id you set)",
            e);
      }
      if (t instanceof ResponseLimit.TooLargeException large) {
        return fail(
            where + ": " + endpoint + " sent " + large.getMessage() + "; is it really EC2?", e);
      }
    }
    if (e instanceof AwsServiceException service) {
      AwsErrorDetails details = service.awsErrorDetails();
      String code = details == null || details.errorCode() == null ? "" : details.errorCode();
      String message = clip(details == null ? null : details.errorMessage());
      int status = service.statusCode();
      if (CREDENTIAL_CODES.contains(code) || status == 401) {
        // The JDK's HttpURLConnection drops the body of a 401 to a streamed POST, so EC2's
        // AuthFailure may arrive as a bare status.
        String cause =
            code.isEmpty() ? "HTTP 401" : code + (message.isEmpty() ? "" : ": " + message);
        return fail(
            where
                + " was refused ("
                + cause
                + "): the AWS credentials were not accepted; check AWS_PROFILE,"
                + " AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the instance role",
            e);
      }
      if (code.equals("UnauthorizedOperation") || status == 403) {
        return fail(
            where
                + " was refused: "
                + (code.isEmpty() ? "HTTP 403" : code)
                + "; the AWS identity needs ec2:DescribeInstances",
            e);
      }
      if (THROTTLING_CODES.contains(code) || status == 429) {
        return fail(
            where
                + " was throttled by EC2 ("
                + (code.isEmpty() ? "HTTP " + status : code)
                + ")"
                + attempts
                + "; try again later, raise \"maxAttempts\", or raise \"cacheTtlSeconds\" so"
                + " Ansible runs ask EC2 less often",
            e);
      }
      if (status >= 500) {
        return fail(
            where
                + " failed: "
                + endpoint
                + " answered HTTP "
                + status
                + (code.isEmpty() ? "" : " " + code)
                + attempts,
            e);
      }
      return fail(
          where
              + " failed: "
              + (code.isEmpty() ? "HTTP " + status : code)
              + (message.isEmpty() ? "" : " (" + message + ")"),
          e);
    }
    if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
      return fail(
          where
              + ": no answer from "
              + endpoint
              + " within "
              + config.apiCallTimeout().toSeconds()
              + " s"
              + attempts
              + " (\"apiCallTimeoutSeconds\"; check the network path or "
              + endpointSetting(config)
              + ")",
          e);
    }
    String text = e.getMessage() == null ? "" : e.getMessage();
    if (text.contains("Unable to load credentials")) {
      return fail(
          "no AWS credentials found for "
              + where
              + "; set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, or run where an"
              + " instance role is available",
          e);
    }
    Throwable io = ioCause(e);
    if (io instanceof ConnectException
        || io instanceof NoRouteToHostException
        || io instanceof UnknownHostException) {
      return fail(
          where
              + ": cannot connect to "
              + endpoint
              + " ("
              + io.getClass().getSimpleName()
              + (io.getMessage() == null ? "" : ": " + clip(io.getMessage()))
              + ")"
              + attempts
              + "; check "
              + endpointSetting(config)
              + " and the network",
          e);
    }
    if (io instanceof SocketTimeoutException) {
      return fail(
          where
              + ": no answer from "
              + endpoint
              + " within the attempt timeout"
              + attempts
              + " (\"apiCallTimeoutSeconds\"; check the network path or \"endpoint\")",
          e);
    }
    if (text.toLowerCase(Locale.ROOT).contains("unmarshall")
        || text.toLowerCase(Locale.ROOT).contains("xml")) {
      return fail(
          where + ": " + endpoint + " sent a response that is not EC2 XML; is it really EC2?", e);
    }
    return fail(where + " failed: " + clip(text) + attempts, e);
  }

  private static EnvironmentFailure fail(String message, Throwable cause) {
    return new EnvironmentFailure(message, cause);
  }

  private static String attempts(RuntimeException e) {
    Integer n = e instanceof SdkException sdk ? sdk.numAttempts() : null;
    return n == null || n <= 1 ? "" : " after " + n + " attempts";
  }

  private static Throwable ioCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException) {
        return t;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  /** One line of at most {@link #MAX_MESSAGE} characters. */
  static String clip(String message) {
    if (message == null) {
      return "";
    }
    String line = message.replaceAll("\\s+", " ").trim();
    return line.length() <= MAX_MESSAGE ? line : line.substring(0, MAX_MESSAGE) + "...";
  }
}
