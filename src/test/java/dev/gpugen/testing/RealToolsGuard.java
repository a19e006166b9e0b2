package dev.gpugen.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Opens the gate {@link RealTools#start} checks, for the duration of a {@link RealToolsTest} class
 * (including its {@code @BeforeAll}) or method. Tests run on one thread, one at a time (no parallel
 * execution is configured), so a counter is enough.
 */
public final class RealToolsGuard
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  private static int open;

  static synchronized boolean isOpen() {
    return open > 0;
  }

  private static synchronized void enter() {
    open++;
  }

  private static synchronized void leave() {
    open--;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    enter();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    leave();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    enter();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    leave();
  }
}
