package dev.gpugen.inventory;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Runs the EC2 stand-in for the benchmark: {@code Ec2StandInMain [instances] [noise] [maxSeconds]}.
 * Serves {@code instances} nodes of demo/prod plus {@code noise} foreign or stopped ones on
 * 127.0.0.1, prints {@code http://127.0.0.1:PORT} on the first line, and stops by itself after
 * {@code maxSeconds} (default 1800) unless killed first.
 */
public final class Ec2StandInMain {
  private Ec2StandInMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 16_000;
    int noise = args.length > 1 ? Integer.parseInt(args[1]) : n / 10;
    long maxSeconds = args.length > 2 ? Long.parseLong(args[2]) : 1800;
    try (Ec2StandIn standIn = Ec2StandIn.start()) {
      standIn.addAll(Fleet.cluster(n)).addAll(Fleet.noise(n, noise));
      System.out.println(standIn.endpoint());
      System.out.flush();
      Thread.sleep(TimeUnit.SECONDS.toMillis(maxSeconds));
    }
  }
}
