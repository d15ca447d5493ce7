"""Reading the last turn without a model: setting, reported failure, what was already said."""

from procmem.answerers.turn import Turn, setting_factor, settings_named


def test_the_setting_comes_from_the_users_messages_only():
    turn = Turn("How do I print?", [("I use a MacBook at work and I'm the admin.",
                                      "On Windows you would open Settings.")])
    assert turn.setting == {"mac", "admin"}


def test_a_reported_failure_needs_an_earlier_turn():
    assert not Turn("It still doesn't work").reports_failure
    assert Turn("It still doesn't work", [("How?", "Restart it.")]).reports_failure
    assert not Turn("How do I add a second printer?", [("How?", "Restart it.")]).reports_failure


def test_already_said_compares_with_the_assistants_answers():
    turn = Turn("What next?", [("How do I install the driver?",
                                "Open Settings, select Printers and add the printer driver.")])
    assert turn.already_said("Select Printers and add the printer driver")
    assert not turn.already_said("Print a test page from the printer properties")
    assert not turn.already_said("Open Settings")  # too short to tell


def test_deployment_is_named_by_product_phrases_and_words():
    assert settings_named("Our mailboxes are in Exchange Online") == {"cloud"}
    assert settings_named("We still run Exchange Server 2016 on premises") == {"on-premises", "exchange@2016"}
    assert settings_named("The online meeting starts late") == set()  # "online" alone names nothing


def test_product_versions_are_settings_of_their_own_product():
    assert settings_named("We still run Exchange Server 2013 and 2016") >= {"exchange@2013", "exchange@2016"}
    assert settings_named("Applies to: Outlook 2016, Outlook 2019") == {"outlook@2016", "outlook@2019"}
    assert settings_named("Every Office 365 user") == {"cloud"}  # 365 is a name, not a version
    assert settings_named("my iPhone on iOS 17.2") == {"ios", "ios@17.2"}


def test_a_version_factor_compares_versions_of_the_same_product_only():
    user = settings_named("I'm on Outlook 2016")
    assert setting_factor(user, settings_named("Applies to: Outlook 2016, Outlook 2019")) > 1
    assert setting_factor(user, settings_named("Applies to: Outlook 2010")) < 1
    assert setting_factor(user, settings_named("Applies to: Exchange Server 2010")) == 1
    assert setting_factor(settings_named("iOS 17.2"), settings_named("iOS 17")) > 1


def test_setting_factor_per_group():
    assert setting_factor({"mac"}, {"mac"}) > 1 > setting_factor({"mac"}, {"windows"})
    assert setting_factor({"cloud"}, {"on-premises"}) < 1 < setting_factor({"cloud"}, {"cloud"})
    assert setting_factor({"admin"}, {"admin"}) == 1.0  # a role excludes nothing
    assert setting_factor({"mac"}, set()) == 1.0 == setting_factor(set(), {"windows"})
    # groups multiply: right platform, wrong deployment
    assert setting_factor({"windows", "cloud"}, {"windows", "on-premises"}) == \
        setting_factor({"windows"}, {"windows"}) * setting_factor({"cloud"}, {"on-premises"})
