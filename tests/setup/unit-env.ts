// Unit tests touch no emulator; they still import modules that read configuration.
process.env.STAGE = 'test';
