package dev.tally.demo;

/** Bad input from the user (file, flag): reported as one line, exit status 2. */
public final class UserInputException extends RuntimeException {
    public UserInputException(String message) {
        super(message);
    }
}
